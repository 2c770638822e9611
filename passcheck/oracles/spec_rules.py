"""The operator rules the ONNX documentation states in prose and ``onnx.checker`` does not enforce, as data.

Each :class:`Rule` names its ops, the opset range it holds in, the check, and its source: what the
documentation says (in our words) and where (``Operators.md`` section, attribute or input). A
check reads one node through a :class:`Site` and returns None (the rule holds), a string (what
breaks it), or an :class:`Undecided` (the rule applies but cannot be decided here: a rank shape
inference did not give, an input that is not a constant). The oracle is
:mod:`passcheck.oracles.conformance`; the rules read from the schemas themselves (attribute types,
type constraints, arity) are there too.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


class Undecided(str):
    """A rule that applies to a node and cannot be decided on it; the text says why."""


@dataclasses.dataclass
class Site:
    """One node as the rules read it.

    Attributes:
        node: the NodeProto.
        version: the opset its domain is imported at.
        attrs: its explicit attributes, as Python values (``onnx.helper.get_attribute_value``).
        const: input name → its value when a constant (initializer not overridden by a graph
            input, or a Constant node's output), else None.
        dims: value name → its static shape (ints, None for an unknown dim), or None when the rank
            is unknown (from onnx shape inference, value_info, graph inputs and initializers).
        declared: value name → the shape the model itself states for it (a main-graph output or
            value_info entry, as :attr:`dims` spells it), None when it states none: what a pass wrote,
            not what shape inference here would add.
    """

    node: Any
    version: int
    attrs: dict[str, Any]
    const: Callable[[str], np.ndarray | None]
    dims: Callable[[str], list[int | None] | None]
    declared: Callable[[str], list[int | None] | None] = lambda _name: None

    def input(self, i: int) -> str:
        return self.node.input[i] if i < len(self.node.input) else ""

    def rank(self, i: int) -> int | None:
        name = self.input(i)
        d = self.dims(name) if name else None
        return None if d is None else len(d)

    def values(self, attr: str | None, index: int | None) -> list | None | Undecided:
        """An attribute's value, else a constant input's (flattened to a list), None when neither
        is given, :class:`Undecided` when the input is given but is not a constant."""
        if attr is not None and attr in self.attrs:
            v = self.attrs[attr]
            return list(v) if isinstance(v, (list, tuple)) else [v]
        if index is not None and (name := self.input(index)):
            c = self.const(name)
            return Undecided(f"input {name!r} is not a constant") if c is None else np.asarray(c).reshape(-1).tolist()
        return None


Check = Callable[[Site], "str | Undecided | None"]


@dataclasses.dataclass(frozen=True)
class Rule:
    """One documented rule. ``since``: the opset range ``[lo, hi)`` of the op's domain it holds in
    (``hi`` None: still in force)."""

    id: str
    ops: tuple[str, ...]
    check: Check
    source: str
    section: str
    since: tuple[int, int | None] = (1, None)

    def applies(self, op_type: str, version: int) -> bool:
        lo, hi = self.since
        return op_type in self.ops and version >= lo and (hi is None or version < hi)

    @property
    def cite(self) -> str:
        return f"{self.source} (ONNX Operators.md, {self.section})"


def _rank_unknown(what: str) -> Undecided:
    return Undecided(f"the rank of {what} is unknown (shape inference gave none)")


def each(attr: str, ok: Callable[[Any], bool], says: str, index: int | None = None) -> Check:
    """Every value of ``attr`` (or of constant input ``index``) satisfies ``ok``."""

    def check(s: Site):
        vals = s.values(attr, index)
        if vals is None or isinstance(vals, Undecided):
            return vals
        bad = [v for v in vals if not ok(v)]
        return f"{attr} = {vals}: {bad} {says}" if bad else None

    return check


def one_of(attr: str, allowed: Sequence[str]) -> Check:
    """A string attribute takes one of the documented values."""

    def check(s: Site):
        v = s.attrs.get(attr)
        if v is None:
            return None
        text = v.decode() if isinstance(v, bytes) else str(v)
        return None if text in allowed else f"{attr} = {text!r} is not one of {', '.join(map(repr, allowed))}"

    check.domain = (attr, tuple(allowed))  # read by the hunt's attribute variations (passcheck.hunt.variation)
    return check


#: Window ops with a weight input (the pooling ops have one input).
_WEIGHTED = frozenset({"Conv", "ConvInteger", "QLinearConv", "ConvTranspose", "DeformConv"})
#: The index of the weight input where it is not 1 (Operators.md QLinearConv: ``x, x_scale, x_zero_point, w, …``).
WEIGHT_INPUT = {"QLinearConv": 3}


def spatial_length(attr: str, factor: int = 1) -> Check:
    """``len(attr) == factor * (rank(X) - 2)`` (X: input 0, else the weight input: 1, QLinearConv's 3; pooling
    ops have none, their rank unknown then)."""

    def check(s: Site):
        if attr not in s.attrs:
            return None
        w = WEIGHT_INPUT.get(s.node.op_type, 1) if s.node.op_type in _WEIGHTED else None
        r = s.rank(0) if s.rank(0) is not None else (s.rank(w) if w is not None else None)
        if r is None:
            return _rank_unknown(f"input {s.input(0)!r}")
        want = factor * (r - 2)
        n = len(s.attrs[attr])
        return (
            None
            if n == want
            else f"{attr} has {n} values; the input has {r - 2} spatial axes, so {want} are documented"
        )

    return check


def axes_in_range(
    attr: str | None,
    index: int | None,
    *,
    end_inclusive: bool = False,
    unique: bool = False,
    rank_grows: bool = False,
    of: int = 0,
) -> Check:
    """Each axis in ``[-r, r-1]`` (``[-r, r]`` with ``end_inclusive``), ``r`` the rank of input ``of``
    (plus the number of axes with ``rank_grows``: Unsqueeze); with ``unique``, no axis named twice."""

    def check(s: Site):
        vals = s.values(attr, index)
        if vals is None or isinstance(vals, Undecided):
            return vals
        what = attr or f"input {s.input(index)!r}"
        vals_shown = s.attrs.get(attr, vals) if attr else vals
        r = s.rank(of)
        if r is None:
            if unique and len(set(vals)) < len(vals):
                return f"{what} = {vals_shown} names an axis twice"
            return _rank_unknown(f"input {s.input(of)!r}")
        r += len(vals) if rank_grows else 0
        hi = r if end_inclusive else r - 1
        bad = [a for a in vals if not -r <= int(a) <= hi]
        if bad:
            return f"{what} = {vals_shown}: {bad} outside [{-r}, {hi}] (rank {r})"
        if unique and len({int(a) % r for a in vals}) < len(vals):
            return f"{what} = {vals_shown} names an axis twice (rank {r})"
        return None

    return check


def permutation(s: Site):
    perm = s.attrs.get("perm")
    if perm is None:
        return None
    r = s.rank(0)
    if sorted(perm) != list(range(len(perm))):
        return f"perm = {list(perm)} is not a permutation of 0..{len(perm) - 1}"
    if r is None:
        return _rank_unknown(f"input {s.input(0)!r}")
    return None if len(perm) == r else f"perm has {len(perm)} values; the input has rank {r}"


def gathernd_batch_dims(s: Site):
    """GatherND's ``batch_dims`` ``b``: a count of leading dimensions shared by data and indices, so ``b >= 0``,
    and ``b < min(q, r)`` (q, r the ranks of indices and data)."""
    b = s.attrs.get("batch_dims", 0)
    if b < 0:
        return f"batch_dims = {b} is negative"
    r, q = s.rank(0), s.rank(1)
    if r is None or q is None:
        return _rank_unknown(f"input {s.input(0 if r is None else 1)!r}")
    return None if b < min(q, r) else f"batch_dims = {b} is not below min(q, r) = {min(q, r)}"


def conv_group(s: Site):
    g = s.attrs.get("group", 1)
    if g < 1:
        return f"group = {g} is not a positive number of groups"
    x, w = s.dims(s.input(0)), s.dims(s.input(1))
    if x is None or w is None or len(x) < 2 or len(w) < 2 or x[1] is None or w[1] is None or w[0] is None:
        return Undecided("the channel counts of X and W are not static")
    if s.node.op_type == "Conv" and (x[1] != w[1] * g or w[0] % g):
        return (
            f"group = {g} with X channels {x[1]} and W {w[:2]}: X.shape[1] must equal W.shape[1] * group "
            "and M a multiple of group"
        )
    return None


def split_sizes(s: Site):
    sizes = s.values(None, 1) if s.version >= 13 else s.values("split", None)
    if sizes is None or isinstance(sizes, Undecided):
        return sizes
    if any(v < 0 for v in sizes):
        return f"split = {sizes} has a negative size"
    d = s.dims(s.input(0))
    if d is None:
        return _rank_unknown(f"input {s.input(0)!r}")
    axis = s.attrs.get("axis", 0)
    if not -len(d) <= axis < len(d) or d[axis] is None:
        return Undecided(f"dim {axis} of {s.input(0)!r} is not static")
    return None if sum(sizes) == d[axis] else f"split = {sizes} sums to {sum(sizes)}, not to dim {axis} ({d[axis]})"


def pad_length(s: Site):
    pads = s.values("pads", 1 if s.version >= 11 else None)
    if pads is None or isinstance(pads, Undecided):
        return pads
    axes = s.values(None, 3) if s.version >= 18 else None
    if isinstance(axes, Undecided):
        return axes
    n = len(axes) if axes is not None else s.rank(0)
    if n is None:
        return _rank_unknown(f"input {s.input(0)!r}")
    return None if len(pads) == 2 * n else f"pads has {len(pads)} values; {2 * n} (2 x {n} axes) are documented"


def reshape_shape(s: Site):
    shape = s.values(None, 1)
    if shape is None or isinstance(shape, Undecided):
        return shape
    if shape.count(-1) > 1:
        return f"shape = {shape} has more than one -1"
    if any(v < -1 for v in shape):
        return f"shape = {shape} has a value below -1"
    if s.attrs.get("allowzero", 0) and -1 in shape and 0 in shape:
        return f"shape = {shape} holds both 0 and -1 with allowzero=1"
    return None


def cast_to(s: Site):
    import onnx

    to = s.attrs.get("to")
    if to is None:
        return None
    valid = {v for v in onnx.TensorProto.DataType.values() if v != onnx.TensorProto.UNDEFINED}
    return None if to in valid else f"to = {to} is not a TensorProto.DataType"


_TERM = re.compile(r"^(?:[A-Za-z]|\.\.\.)*$")


def einsum_equation(s: Site):
    eq = s.attrs.get("equation")
    if eq is None:
        return None
    eq = (eq.decode() if isinstance(eq, bytes) else eq).replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if "->" in rhs or any(not _TERM.match(t) for t in [*terms, rhs]):
        return f"equation {eq!r} is not comma-separated letter terms with an optional '->' output"
    if len(terms) != len([x for x in s.node.input if x]):
        return f"equation {eq!r} has {len(terms)} input terms for {len(s.node.input)} inputs"
    if arrow:
        letters = set("".join(terms).replace("...", ""))
        out = rhs.replace("...", "")
        if rhs.count("...") > 1 or len(set(out)) < len(out) or not set(out) <= letters:
            return (
                f"equation {eq!r}: the output term repeats a letter, has two ellipses, or names a letter no input has"
            )
    for i, t in enumerate(terms):
        r = s.rank(i)
        n = len(t.replace("...", ""))
        if r is not None and (n != r if "..." not in t else n > r):
            return f"equation {eq!r}: term {t!r} does not match the rank {r} of input {i}"
    return None


def dropout_ratio(s: Site):
    ratio = s.values(None, 1)
    if ratio is None or isinstance(ratio, Undecided):
        return ratio
    return None if all(0 <= v < 1 for v in ratio) else f"ratio = {ratio} is outside [0, 1)"


def resize_output_dims(s: Site):
    """A static output dim the model states for Resize / Upsample with constant scales is
    ``floor(input_dim * scale)``, the product of the stored values (float32 scales times an integer
    dim: exact in float64), on each axis whose input dim is static. Resize-18 ``axes`` picks the
    axes the scales are for; ``tf_crop_and_resize`` also scales the roi and is not read."""
    import math

    stated = s.declared(s.node.output[0]) if s.node.output else None
    if not stated or all(d is None for d in stated):
        return None  # the model states no output dim: nothing to hold
    mode = s.attrs.get("coordinate_transformation_mode", b"")
    if (mode.decode() if isinstance(mode, bytes) else mode) == "tf_crop_and_resize":
        return Undecided("tf_crop_and_resize: the roi scales the output too")
    if s.node.op_type == "Upsample":
        scales = s.values("scales", 1 if s.version >= 9 else None)
    else:
        scales = s.values(None, 1 if s.version == 10 else 2)
    if not scales or isinstance(scales, Undecided):
        return scales or None  # no scales (sizes given) or not a constant
    dims = s.dims(s.input(0))
    if dims is None or len(dims) != len(stated):
        return _rank_unknown(f"input {s.input(0)!r}")
    axes = s.attrs.get("axes")
    axes = [a % len(dims) for a in axes] if axes else list(range(len(dims)))
    if len(axes) != len(scales):
        return f"{len(scales)} scales for {len(axes)} axes"
    for axis, scale in zip(axes, scales, strict=True):
        d, out = dims[axis], stated[axis]
        if d is not None and out is not None and out != math.floor(d * scale):
            return (
                f"output dim {axis} is stated {out}; floor({d} x {scale!r}) = {math.floor(d * scale)} "
                f"(the product of the stored scale, not a rounded one)"
            )
    return None
