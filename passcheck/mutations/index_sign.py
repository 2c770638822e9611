"""Non-negative ↔ negative axes and indices given as static *inputs* (the attribute forms are
:mod:`passcheck.mutations.axes`). ONNX operator spec:

- Squeeze-13, Unsqueeze-13, ReduceSum-13, Reduce*-18, Slice-11+ and Pad-18 take ``axes`` as an
  int64 input (CumSum-11 its ``axis`` as a 0-D int32/int64 one) whose entries lie in [-r, r-1],
  a negative entry counting from the back; r is the input's rank (Unsqueeze: the output's rank,
  input rank + the number of axes).
- Gather-11/13 indices lie in [-s, s-1] on the gathered axis of size s, a negative index counting
  from the back.

- Unsqueeze-11+ says the order of its axes does not matter; Squeeze's axes name the set of size-1
  dims removed. So a list of two or more axes may be reversed.

So an entry ``a >= 0`` and ``a - r`` (``i >= 0`` and ``i - s``) name the same axis (element). The
rewrites give the node a fresh tensor with the other spelling (an initializer for an initializer, a
Constant for a Constant; the old one goes when nothing else reads it). Main graph only, where shape
inference knows the rank (Gather: the static dim). Sites are the rewritten nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._graph_edit import attr_value, splice
from passcheck.mutations._shapes import known
from passcheck.mutations.axes import _REDUCE as _REDUCE_18
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import numpy as np
    import onnx

#: op → (axes input slot, lowest opset with that input taking negative axes, rank of: "in" / "out").
AXES_INPUTS: dict[str, tuple[int, int, str]] = {
    **{op: (1, 18, "in") for op in _REDUCE_18},
    "ReduceSum": (1, 13, "in"),
    "Squeeze": (1, 13, "in"),
    "Unsqueeze": (1, 13, "out"),
    "Slice": (3, 11, "in"),
    "Pad": (3, 18, "in"),
    "CumSum": (1, 11, "in"),  # a 0-D axis, int32 or int64
}


def _flip(values: np.ndarray, size: int, negative: bool) -> np.ndarray | None:
    """``values`` with each entry in [0, size) written as entry - size (``negative``) or each entry in
    [-size, 0) as entry + size; None when an entry is out of range or nothing changes."""
    if not ((values >= -size) & (values < size)).all():
        return None
    new = values - size * (values >= 0) if negative else values + size * (values < 0)
    new = new.astype(values.dtype)
    return None if (new == values).all() else new


def _constant(taken: set[str], base: str, array: np.ndarray) -> onnx.NodeProto:
    import onnx
    from onnx import numpy_helper

    out = fresh_name(taken, base)
    return onnx.helper.make_node(
        "Constant", [], [out], name=fresh_name(taken, f"{out}_node"), value=numpy_helper.from_array(array, "")
    )


def fresh_static(g: onnx.GraphProto, taken: set[str], base: str, array: np.ndarray, like: str) -> list:
    """A fresh static tensor holding ``array``, spelled as ``like`` is: a new initializer when ``like``
    is one (nothing to insert: returns []), else a Constant node (returned, to insert before its reader).
    Keeping the spelling keeps initializer-or-constant (a freedom of its own) out of the mutant."""
    from onnx import numpy_helper

    if like in {t.name for t in g.initializer}:
        g.initializer.append(numpy_helper.from_array(array, fresh_name(taken, base)))
        return []
    return [_constant(taken, base, array)]


def respell_input(
    g: onnx.GraphProto, taken: set[str], n: onnx.NodeProto, slot: int, array: np.ndarray, suffix: str, freed: set[str]
) -> list:
    """Point ``n``'s static input ``slot`` at a fresh tensor holding ``array`` (see :func:`fresh_static`);
    the old name goes into ``freed`` (for ``drop_unused``). Returns the nodes to insert before ``n``."""
    made = fresh_static(g, taken, f"{n.input[slot]}_{suffix}", array, n.input[slot])
    freed.add(n.input[slot])
    n.input[slot] = made[0].output[0] if made else g.initializer[-1].name
    return made


def flip_static_inputs(
    model: onnx.ModelProto,
    only: frozenset[str] | None,
    negative: bool,
    slot_of: Callable[[onnx.NodeProto], int | None],
    sizes_of: Callable[[onnx.NodeProto, np.ndarray], np.ndarray | int | None],
) -> list[str]:
    """Flip the sign of the entries of one static integer input per main-graph node (default domain):
    ``slot_of(node)`` names the input (None: not this node), ``sizes_of(node, values)`` what each entry
    counts against (broadcastable to it; None: unknown). Each entry in [0, s) becomes entry - s
    (``negative``) or each in [-s, 0) entry + s (:func:`_flip`); the node reads a fresh tensor of the
    same spelling (:func:`respell_input`). Returns the labels of the rewritten nodes."""
    from onnx import numpy_helper

    g = model.graph
    static = static_tensors(g)
    taken, before, sites, freed = all_names(model), {}, [], set()
    for i, n in enumerate(g.node):
        if not is_default_domain(n) or not chosen(only, node_label(n, i)):
            continue
        slot = slot_of(n)
        if slot is None or len(n.input) <= slot or n.input[slot] not in static:
            continue
        values = numpy_helper.to_array(static[n.input[slot]])
        if values.dtype.kind != "i":
            continue
        sizes = sizes_of(n, values)
        new = None if sizes is None else _flip(values, sizes, negative)
        if new is None:
            continue
        before[i] = respell_input(g, taken, n, slot, new, "neg" if negative else "pos", freed)
        sites.append(node_label(n, i))
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


def _edit(model: onnx.ModelProto, only: frozenset[str] | None, negative: bool, gather: bool) -> list[str]:
    version = opset(model)
    if version < 11:
        return []
    types = known(model)

    def slot_of(n: onnx.NodeProto) -> int | None:
        if gather:
            return 1 if n.op_type == "Gather" else None
        spec = AXES_INPUTS.get(n.op_type)
        return spec[0] if spec is not None and version >= spec[1] else None

    def sizes_of(n: onnx.NodeProto, values: np.ndarray) -> int | None:
        k = types.get(n.input[0])
        if k is None or k.rank is None:
            return None
        if not gather:
            return k.rank + (int(values.size) if AXES_INPUTS[n.op_type][2] == "out" else 0)
        axis = attr_value(n, "axis", 0)
        size = k.dims[axis % k.rank] if k.rank and -k.rank <= axis < k.rank else None
        return size if isinstance(size, int) and size > 0 else None

    return flip_static_inputs(model, only, negative, slot_of, sizes_of)


def axes_negative(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Static axes inputs: every entry a >= 0 → a - r (Squeeze/Unsqueeze/ReduceSum-13, Reduce*-18, Slice, Pad-18)."""
    return _edit(model, only, negative=True, gather=False)


def axes_positive(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Static axes inputs: every entry a < 0 → a + r."""
    return _edit(model, only, negative=False, gather=False)


def gather_negative(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Gather with static indices on an axis of static size s: every index i >= 0 → i - s."""
    return _edit(model, only, negative=True, gather=True)


def gather_positive(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Gather with static indices on an axis of static size s: every index i < 0 → i + s."""
    return _edit(model, only, negative=False, gather=True)


def axes_reversed(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Squeeze/Unsqueeze with two or more static axes (attribute, or input from opset 13): the list reversed."""
    from onnx import numpy_helper

    g, static, version = model.graph, static_tensors(model.graph), opset(model)
    taken, before, sites, freed = all_names(model), {}, [], set()
    for i, n in enumerate(g.node):
        if n.op_type not in ("Squeeze", "Unsqueeze") or not is_default_domain(n) or not chosen(only, node_label(n, i)):
            continue
        if n.op_type == "Unsqueeze" and version < 11:
            continue  # Unsqueeze-1 does not say that the order is free
        a = next((a for a in n.attribute if a.name == "axes"), None)
        if a is not None and len(a.ints) >= 2:
            new = list(a.ints)[::-1]
            del a.ints[:]
            a.ints.extend(new)
        elif a is None and len(n.input) > 1 and n.input[1] in static:
            values = numpy_helper.to_array(static[n.input[1]])
            if values.ndim != 1 or values.size < 2:
                continue
            before[i] = respell_input(g, taken, n, 1, values[::-1].copy(), "reversed", freed)
        else:
            continue
        sites.append(node_label(n, i))
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


REWRITES = (
    Rewrite(
        "axes-input-negative",
        "static axes inputs a >= 0 → a - rank (Squeeze/Unsqueeze/ReduceSum-13, Reduce*-18, Slice-11, Pad-18)",
        axes_negative,
        inverse="axes-input-positive",
    ),
    Rewrite(
        "axes-input-positive",
        "static axes inputs a < 0 → a + rank (rank known)",
        axes_positive,
        inverse="axes-input-negative",
    ),
    Rewrite(
        "gather-index-negative",
        "Gather's static indices i >= 0 → i - s on an axis of static size s (opset >= 11)",
        gather_negative,
        inverse="gather-index-positive",
    ),
    Rewrite(
        "gather-index-positive",
        "Gather's static indices i < 0 → i + s on an axis of static size s (opset >= 11)",
        gather_positive,
        inverse="gather-index-negative",
    ),
)

REWRITES += (
    Rewrite(
        "squeeze-axes-reversed",
        "Squeeze/Unsqueeze with two or more static axes → the same axes listed in reverse (its own inverse)",
        axes_reversed,
        inverse="squeeze-axes-reversed",
    ),
)

FREEDOMS = (
    Freedom(
        "axes-input-sign",
        "operator schemas",
        "Operators.md Squeeze-13, Unsqueeze-13, ReduceSum-13, Reduce*-18, Slice-11/13, Pad-18, CumSum-11/14 "
        "(axes / axis input: range [-r, r-1], negative counts from the back; Unsqueeze's r is the output rank)",
        "An axis given in an int64 axes input may be counted from the front (a) or from the back (a - r), "
        "as the attribute forms may (axis-sign).",
        ("axes-input-negative", "axes-input-positive"),
        "main-graph nodes whose axes input is static (initializer or Constant) and whose input rank shape "
        "inference knows; the node gets a fresh tensor, an initializer or a Constant as the one it replaces (a "
        "shared axes tensor stays for its other readers)",
    ),
    Freedom(
        "gather-index-sign",
        "operator schemas",
        "Operators.md Gather-11, Gather-13 (indices in [-s, s-1], negative counts from the back of the axis)",
        "A static Gather index may be counted from the front (i) or from the back (i - s) of an axis of size s.",
        ("gather-index-negative", "gather-index-positive"),
        "main-graph Gather nodes with static indices (any rank, int32 or int64 kept) whose gathered axis has "
        "a static dim, Gather on a Shape output included; opset >= 11",
    ),
    Freedom(
        "squeeze-axes-order",
        "operator schemas",
        "Operators.md Unsqueeze-1/11/13/21 (the order of values in axes does not matter), Squeeze-1/11/13/21 "
        "(axes: the set of size-1 dims removed; duplicates are an error)",
        "The axes of an Unsqueeze or Squeeze may be listed in any order: they name a set of positions.",
        ("squeeze-axes-reversed",),
        "main-graph Squeeze and Unsqueeze-11+ nodes with two or more axes, as an attribute or a static input (fresh "
        "tensor of the replaced spelling); its own inverse; Reduce* left out (their float results may depend "
        "on the order a runtime reduces in)",
    ),
)
