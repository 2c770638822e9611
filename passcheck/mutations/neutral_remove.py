"""Neutral ops removed (issue 27; the inverse of :mod:`passcheck.mutations.neutral`). ONNX operator
spec, each op's definition: a node is the identity on its data input, and may go, when it is

- ``Identity`` of a tensor;
- ``Add`` / ``Sub`` of a static all-zero operand, ``Mul`` / ``Div`` by a static all-ones operand
  (second operand; Add and Mul either), ``And`` with all-true, ``Or`` / ``Xor`` with all-false,
  where the output keeps the data input's shape (broadcasting does not grow it) — floats:
  ``-0 + +0`` is ``+0``, so removing ``Add(x, +0)`` may turn a ``+0`` back into ``-0``, equal under
  the numeric oracle;
- ``Transpose`` with the identity ``perm``; ``Cast`` to the input's own element type;
- ``Reshape``, ``Expand`` or ``Slice`` (unit steps) whose output shape, as shape inference knows it,
  is the input's (every dim known or the same dim_param);
- ``Concat`` of one input; a Reduce* with ``noop_with_empty_axes = 1`` and no axes;
- ``Sum``, ``Max``, ``Min`` or ``Mean`` of one input (Sum-8/Max-8/Min-8/Mean-8+: 1 to ∞ inputs);
  ``Where`` with a static all-true condition whose output keeps ``X``'s shape (Where-9+).

Main graph only. A node whose output is a graph output or read inside a subgraph goes only when
its data input is a node output nothing else reads (that node then writes the name)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, drop_unused, is_default_domain, node_label, static_tensors
from passcheck.mutations._graph_edit import protected, set_nodes
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.keepdims import REDUCE_AXES_INPUT

if TYPE_CHECKING:
    import onnx

#: op → (neutral constant value, which operand positions the constant may take).
ARITH = {
    "Add": (0, (0, 1)),
    "Sub": (0, (1,)),
    "Mul": (1, (0, 1)),
    "Div": (1, (1,)),
    "And": (1, (0, 1)),
    "Or": (0, (0, 1)),
    "Xor": (0, (0, 1)),
}
SHAPE_KEEPING = frozenset({"Reshape", "Expand", "Slice"})


def _same_shape(a, b) -> bool:
    if a is None or b is None or a.dims is None:
        return False
    return a.dims == b.dims and all(d is not None for d in a.dims)


def _data_input(n: onnx.NodeProto, static: dict, types: dict) -> str | None:
    """The input ``n`` passes through unchanged, or None when ``n`` is not neutral."""
    import numpy as np
    from onnx import numpy_helper

    op, ins = n.op_type, list(n.input)
    out = types.get(n.output[0])
    if op == "Identity" and len(ins) == 1 and ins[0] in types:
        return ins[0]
    if op in ("Concat", "Sum", "Max", "Min", "Mean") and len(ins) == 1:
        return ins[0]
    if op == "Where" and len(ins) == 3 and ins[0] in static and _same_shape(types.get(ins[1]), out):
        cond = numpy_helper.to_array(static[ins[0]])
        return ins[1] if cond.size and bool(np.all(cond)) else None
    if op in REDUCE_AXES_INPUT and any(a.name == "noop_with_empty_axes" and a.i == 1 for a in n.attribute):
        no_axes = not any(a.name == "axes" for a in n.attribute) and (len(ins) < 2 or not ins[1])
        return ins[0] if no_axes else None
    if op == "Transpose" and (k := types.get(ins[0])) is not None and k.rank is not None:
        perm = next((list(a.ints) for a in n.attribute if a.name == "perm"), None)
        return ins[0] if perm == list(range(k.rank)) else None
    if op == "Cast" and (k := types.get(ins[0])) is not None and k.elem_type:
        to = next((a.i for a in n.attribute if a.name == "to"), None)
        return ins[0] if to == k.elem_type else None
    if op == "Slice" and _full_range(n, static, types.get(ins[0])):
        return ins[0]
    if op in SHAPE_KEEPING and _same_shape(types.get(ins[0]), out):
        if op == "Slice" and not _unit_steps(n, static):
            return None
        return ins[0]
    if op in ARITH and len(ins) == 2 and not any(a.name in ("broadcast", "axis") for a in n.attribute):
        value, positions = ARITH[op]
        for p in positions:
            c, x = ins[p], ins[1 - p]
            k = types.get(x)
            if c in static and _same_shape(k, out) and k.elem_type == static[c].data_type:
                arr = numpy_helper.to_array(static[c])
                if arr.size and bool(np.all(arr == value)):
                    return x
    return None


def _full_range(n: onnx.NodeProto, static: dict, k) -> bool:
    """Whether a Slice with static parameters starts every axis it names at 0 and ends it at or past
    the dim (an end of at least 2**31 - 1 when the dim is not known), step 1."""
    import onnx
    from onnx import numpy_helper

    def values(slot: int, attr: str):
        if any(a.name == attr for a in n.attribute):
            return [int(v) for v in onnx.helper.get_attribute_value(next(a for a in n.attribute if a.name == attr))]
        if len(n.input) > slot and n.input[slot]:
            if n.input[slot] not in static:
                return None
            return [int(v) for v in numpy_helper.to_array(static[n.input[slot]]).reshape(-1)]
        return []

    starts, ends, axes = values(1, "starts"), values(2, "ends"), values(3, "axes")
    if None in (starts, ends, axes, k) or not starts or not _unit_steps(n, static) or k.rank is None:
        return False
    axes = axes or list(range(len(starts)))
    for s, e, a in zip(starts, ends, axes, strict=False):
        dim = k.dims[a % k.rank] if -k.rank <= a < k.rank else None
        if s != 0 or not (e >= 2**31 - 1 or (isinstance(dim, int) and e >= dim)):
            return False
    return True


def _unit_steps(n: onnx.NodeProto, static: dict) -> bool:
    from onnx import numpy_helper

    if len(n.input) < 5 or not n.input[4]:
        return True
    return n.input[4] in static and all(int(v) == 1 for v in numpy_helper.to_array(static[n.input[4]]).reshape(-1))


def remove(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Remove each neutral main-graph node (see the module doc); its readers read its data input.
    Sites are the removed nodes."""
    g = model.graph
    static, types, keep_names = static_tensors(g), known(model), protected(g)
    renames: dict[str, str] = {}
    dropped: set[int] = set()
    neutral: dict[int, str] = {}
    for i, n in enumerate(g.node):
        if (
            is_default_domain(n)
            and len(n.output) == 1
            and chosen(only, node_label(n, i))
            and (x := _data_input(n, static, types)) is not None
        ):
            neutral[i] = x
    # a neutral node writing a graph output goes only when its data input is a node output nothing
    # else reads: that producer then writes the output's name
    producer = {o: j for j, n in enumerate(g.node) for o in n.output if o}
    for i, x in neutral.items():
        n = g.node[i]
        if n.output[0] not in keep_names:
            renames[n.output[0]] = renames.get(x, x)
            dropped.add(i)
    readers: dict[str, int] = {}
    for j, n in enumerate(g.node):
        if j not in dropped:
            for x in n.input:
                readers[renames.get(x, x)] = readers.get(renames.get(x, x), 0) + 1
    outputs_to: dict[str, str] = {}
    for i, x in neutral.items():
        n, src = g.node[i], renames.get(x, x)
        if (
            i not in dropped
            and src in producer
            and src not in keep_names
            and readers.get(src) == 1
            and is_default_domain(g.node[producer[src]])
        ):
            outputs_to[src] = n.output[0]
            dropped.add(i)
    sites = [node_label(g.node[i], i) for i in sorted(dropped)]
    if not sites:
        return []
    freed = {x for i in dropped for x in g.node[i].input}
    kept = [n for i, n in enumerate(g.node) if i not in dropped]
    for n in kept:
        n.input[:] = [renames.get(x, x) for x in n.input]
        n.output[:] = [outputs_to.get(o, o) for o in n.output]
    set_nodes(g, kept)
    drop_unused(g, freed | set(renames) | set(outputs_to))
    return sites


REWRITES = (
    Rewrite(
        "neutral-remove",
        "a neutral node (Identity, Add/Sub 0, Mul/Div 1, And true, Or/Xor false, identity "
        "Transpose, Cast to its own type, shape-keeping Reshape/Expand/Slice, one-input Concat/Sum/Max/Min/Mean, "
        "Where(all true, x, _)) → removed",
        remove,
    ),
)

_SITES = (
    "main-graph nodes; one whose output is a graph output or read by a subgraph goes only when its data input "
    "is a node output nothing else reads; composes with every rewrite (depth 2)"
)
FREEDOMS = (
    Freedom(
        "identity-node-removed",
        "nodes",
        "Operators.md Identity",
        "An Identity between two values may be dropped, its readers reading its input: the uncommon form is the "
        "shorter one when the model as given carries Identity nodes.",
        ("neutral-remove",),
        _SITES,
    ),
    Freedom(
        "neutral-sub-div-xor",
        "algebra",
        "Operators.md Sub, Div, Xor",
        "x - 0, x / 1 and Xor(x, false) are x; only removed (the insertion side writes Add and Mul).",
        ("neutral-remove",),
        _SITES,
    ),
)
