"""Pairwise (2-wise covering) combinations of the attribute values an operator schema allows.

:mod:`.attr_values` moves one attribute at a time; a pass or kernel that is right for each value alone can still be
wrong where two meet (a pool's SAME padding sized from the undilated kernel is right until ``dilations > 1`` meets
``auto_pad = SAME_*``). This module reads, per schema, the attributes whose allowed values are a small enumerable
domain (*factors*), and picks the fewest rows it can (a greedy covering array) such that every pair of values of
two factors the spec allows together appears in some row. Each row is the recipe's node with those values; the
generator's gate (checker, onnxruntime, reference evaluator) drops what the spec or the tools refuse.

Factors, each read from the schema's attribute type and the spec text (onnx Operators.md):

- ``auto_pad`` (STRING; MaxPool, AveragePool, LpPool, Conv, ConvTranspose, ...: "auto_pad must be either NOTSET,
  SAME_UPPER, SAME_LOWER or VALID"): all four;
- windowed ops (a ``kernel_shape`` attribute, a data input ``X`` of rank ≥ 3 and no other spatial input but the
  weight ``W``; Operators.md Conv / MaxPool: "X ... (N x C x D1 x D2 ... Dn)", any number of spatial axes):
  ``rank`` (the spatial rank, 1 / 2 / 3, the kernel and weight resized with it), ``strides`` and ``dilations``
  ("Stride along each spatial axis", "dilation value along each spatial axis of the filter"): 1 vs 2 on every
  axis, ``pads`` ("it can take any value greater than or equal to 0 ... [x1_begin, x2_begin...x1_end, x2_end,...]"):
  none vs asymmetric (1 at the beginning, 0 at the end of every axis). The spec forbids ``pads`` with a set
  ``auto_pad`` ("This attribute cannot be used simultaneously with auto_pad attribute"): no row has both, and a
  pair only such a row would hold is not asked for;
- 0 / 1 flags: an INT attribute whose default is 0 or 1 and whose description states a two-way choice ("Whether
  ...", "Boolean", "... or not", "If set to 1", "0 is ... 1 is ...": ``ceil_mode``, ``count_include_pad``,
  ``keepdims``, ``noop_with_empty_axes``, ``storage_order``, ``select_last_index``, ``exclusive``, ``reverse``,
  ``largest``, ``sorted``, ...); left out: the flags that reshape the operands (:data:`RESHAPING`) and ``trans*``
  (:mod:`.attr_values` moves it with its input).

A schema with fewer than two factors has no pairs to cover and gets no row. A value equal to the recipe's own (its
attribute or the schema default; rank 2 for a recipe of rank 2) is left unwritten, so a row differs from the
recipe only where it moves; the recipe's own row is not emitted (it is the generated base already).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Sequence

import onnx

from passcheck.generate.recipe import Input, Node

A = onnx.AttributeProto

#: Operators.md, auto_pad: "auto_pad must be either NOTSET, SAME_UPPER, SAME_LOWER or VALID"
AUTO_PAD = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")
#: a two-way choice in an INT attribute's description
_FLAG_DOC = re.compile(
    r"\bwhether\b|\bboolean\b|\bor not\b|if set to (1|true|nonzero)|\bif (1|true|false)\b|\b[01] means\b"
    r"|\b0 is\b.*\b1 is\b"
)
#: flags whose other value changes the operands' or outputs' shapes (the recipe's shapes would be wrong) or
#: belongs to a legacy spelling: RNN ``layout`` ("The shape format of inputs X ..."), BatchNormalization's
#: ``is_test`` / ``spatial`` / ``training_mode`` (more outputs, other scale shapes), the pre-7 ``broadcast``,
#: Attention's ``qk_matmul_output_mode`` (what an optional output holds), LSTM's ``input_forget`` (legacy).
RESHAPING = frozenset({"layout", "is_test", "spatial", "training_mode", "broadcast", "qk_matmul_output_mode"})


@dataclasses.dataclass(frozen=True)
class Factor:
    """One attribute (or ``rank``, the spatial rank) and the values a row may give it; ``values[0]`` is the
    recipe's own."""

    name: str
    values: tuple


def _default(node: Node, name: str):
    if name in node.attrs:
        return node.attrs[name]
    d = node.schema.attributes[name].default_value
    return onnx.helper.get_attribute_value(d) if d.type else None


def _auto_pad(node: Node) -> str:
    """The recipe's auto_pad (NOTSET when unset: the schema default)."""
    cur = _default(node, "auto_pad")
    return (cur.decode() if isinstance(cur, bytes) else cur) or "NOTSET"


def _data(node: Node) -> list[Input]:
    return [i for i in node.inputs if i.value is None and not i.empty and not i.wrap]


def _weight(node: Node) -> Input | None:
    return next((i for i in node.inputs if i.name in ("W", "w") and not i.empty), None)


def spatial_rank(node: Node) -> int:
    """The number of spatial axes of a windowed node (its data input's rank − 2); 0 when ``node`` is not one:
    no ``kernel_shape`` attribute, a first data input of rank < 3, or another input of rank ≥ 3 besides the
    weight (DeformConv's offsets, MaxUnpool's indices: their shapes follow the output's)."""
    data = _data(node)
    if "kernel_shape" not in node.schema.attributes or not data or len(data[0].shape) < 3:
        return 0
    w = _weight(node)
    if any(len(i.shape) >= 3 and i is not data[0] and i is not w for i in node.inputs if not i.empty):
        return 0
    if w is not None and (w.value is not None or len(w.shape) != len(data[0].shape)):
        return 0
    return len(data[0].shape) - 2


def flags(node: Node) -> list[str]:
    """The schema's 0/1 flag attributes (module doc), in attribute order."""
    out = []
    for name, a in node.schema.attributes.items():
        if a.type != A.INT or name in RESHAPING or name.lower().startswith("trans"):
            continue
        if _default(node, name) in (0, 1) and _FLAG_DOC.search(a.description.lower()):
            out.append(name)
    return out


def factors(node: Node) -> list[Factor]:
    """The factors of ``node``'s schema (module doc), each with the recipe's own value first."""
    attrs = node.schema.attributes
    r = spatial_rank(node)
    out = []
    if r:
        out.append(Factor("rank", (r, *[k for k in (1, 2, 3) if k != r])))
    if "auto_pad" in attrs and attrs["auto_pad"].type == A.STRING:
        cur = _auto_pad(node)
        out.append(Factor("auto_pad", (cur, *[v for v in AUTO_PAD if v != cur])))
    if r:
        for name in ("strides", "dilations"):
            if name in attrs and node.attrs.get(name) in (None, [1] * r):
                out.append(Factor(name, (1, 2)))
        if "pads" in attrs and node.attrs.get("pads") in (None, [0] * 2 * r):
            out.append(Factor("pads", ("none", "asymmetric")))
    for name in flags(node):
        cur = _default(node, name)
        out.append(Factor(name, (cur, 1 - cur)))
    return out


def allowed(row: dict[str, object]) -> bool:
    """Whether the spec allows ``row`` (factor → value) as a whole: explicit ``pads`` only under ``auto_pad``
    NOTSET (Operators.md: "This attribute cannot be used simultaneously with auto_pad attribute")."""
    return not (row.get("pads") == "asymmetric" and row.get("auto_pad", "NOTSET") != "NOTSET")


def cover(fs: Sequence[Factor], ok: Callable[[dict[str, object]], bool] = allowed) -> list[dict[str, object]]:
    """A 2-wise covering array of ``fs``: rows (factor name → value), each allowed by ``ok``, such that every pair
    of values of two factors that some allowed row holds is held by a row. Greedy (each step the allowed row that
    holds the most pairs not yet held, the first in product order on a tie): deterministic, not always minimal.
    The recipe's own row (every factor at ``values[0]``) is left out. Fewer than two factors: no rows."""
    if len(fs) < 2:
        return []
    names = [f.name for f in fs]
    rows = [r for r in (dict(zip(names, vals)) for vals in itertools.product(*(f.values for f in fs))) if ok(r)]

    def pairs(r):
        return {((a, r[a]), (b, r[b])) for a, b in itertools.combinations(names, 2)}

    held = [pairs(r) for r in rows]
    todo = set().union(*held) if held else set()
    own = {f.name: f.values[0] for f in fs}
    todo -= pairs(own) if ok(own) else set()  # the recipe itself holds these
    out = []
    while todo:
        k = max(range(len(rows)), key=lambda i: (len(held[i] & todo), -i))
        out.append(rows[k])
        todo -= held[k]
    return [r for r in out if r != own]


def _resize(i: Input, r: int, side: int) -> None:
    """``i``'s spatial dims (after the first two) set to ``r`` copies of ``side``."""
    i.shape = (*i.shape[:2], *([side] * r))


def apply(node: Node, row: dict[str, object]) -> Node:
    """``node`` with ``row``'s values (module doc: a value equal to ``values[0]`` is written as the recipe has it)."""
    v = node.copy()
    r0 = spatial_rank(node)
    r = int(row.get("rank", r0))
    if r0:
        x = _data(v)[0]
        side = max(x.shape[2:])
        if r != r0:
            _resize(x, r, side)
            k = v.attrs.get("kernel_shape")
            k0 = k[0] if k else 2
            v.attrs["kernel_shape"] = [k0] * r
            if (w := _weight(v)) is not None:
                _resize(w, r, w.shape[2])
        for name in ("strides", "dilations"):
            if row.get(name) == 2:
                v.attrs[name] = [2] * r
        if row.get("pads") == "asymmetric":
            v.attrs["pads"] = [1] * r + [0] * r
    if (pad := row.get("auto_pad")) is not None and pad != _auto_pad(node):
        v.attrs["auto_pad"] = pad
    for name in flags(node):
        if name in row and row[name] != _default(node, name):
            v.attrs[name] = row[name]
    return v


def _text(name: str, value: object) -> str:
    return f"{name.replace('_', '-')}-{str(value).lower().replace('_', '-')}"


def label(fs: Sequence[Factor], row: dict[str, object]) -> str:
    """``pairwise.<factor>-<value>...`` for the factors ``row`` moves off the recipe's own value, in factor order
    (``pairwise.rank-1.auto-pad-same-upper.dilations-2``)."""
    moved = [_text(f.name, row[f.name]) for f in fs if row[f.name] != f.values[0]]
    return "pairwise." + ".".join(moved)


def rows(node: Node) -> list[tuple[str, Node]]:
    """``(label, node')`` per row of the covering array of ``node``'s factors (:func:`cover`), in cover order."""
    fs = factors(node)
    return [(label(fs, row), apply(node, row)) for row in cover(fs)]
