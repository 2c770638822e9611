"""A Slice of several axes as one Slice per axis (``slice-per-axis``): ``Slice(x, s, e, [a1, a2, …], t)`` →
``Slice(Slice(x, [s1], [e1], [a1], [t1]), [s2], [e2], [a2], [t2])`` ….

Operators.md Slice-10/11/13: each listed axis is sliced on its own, its start and end clamped against that axis's
dim alone, the other dims kept; ``axes`` omitted means ``[0, …, len(starts)-1]``, ``steps`` omitted all 1. Slicing
axis ``a1`` leaves every other dim as it was, so the axes may be sliced one after another in any order: the same
elements, bit for bit, for every element type. Passes read a Slice by its parameter vectors: onnxscript's rewriter
drops or merges slices by their starts and ends (``collapse_slices``), onnxruntime's fusions match Slices of one
axis (attention's key / value splits), and constant folding reads the vectors whole. Bases write each multi-axis
slice as one node; a writer that slices one axis at a time (exporters do, per indexing expression) was never offered.

Sites: main-graph default-domain Slice nodes (opset >= 10) whose ``starts``, ``ends`` and, when given, ``axes`` and
``steps`` are static (:func:`~passcheck.mutations._base.static_tensors`) and name two axes or more. The node keeps its
name and output and slices the last axis; new int64 Constants hold the one-element vectors (``Tind`` is one type for
all four, so all int64 is valid). One way: merging the chain is a pass's work.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
    static_vector,
)
from passcheck.mutations._graph_edit import drop_unread, int64_constant, set_nodes
from passcheck.mutations._only import wanted
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

MIN_OPSET = 10


def _params(static: dict, n: onnx.NodeProto) -> list[tuple[int, int, int, int]] | None:
    """``(start, end, axis, step)`` per sliced axis, or None when a parameter is not static or malformed."""
    slots = list(n.input) + [""] * (5 - len(n.input))
    starts, ends = static_vector(static, slots[1]), static_vector(static, slots[2])
    if starts is None or ends is None or len(starts) != len(ends):
        return None
    axes = static_vector(static, slots[3]) if slots[3] else list(range(len(starts)))
    steps = static_vector(static, slots[4]) if slots[4] else [1] * len(starts)
    if axes is None or steps is None or not len(axes) == len(steps) == len(starts):
        return None
    return list(zip(starts, ends, axes, steps, strict=True))


def split(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each site → a chain of one-axis Slices in the listed axis order, in place; the labels changed, in node order."""
    import onnx

    if opset(model) < MIN_OPSET:
        return []
    g = model.graph
    static = static_tensors(g)
    taken: set[str] | None = None
    sites, nodes, freed = [], [], set()
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type != "Slice" or not is_default_domain(n) or not wanted(only, label):
            nodes.append(n)
            continue
        params = _params(static, n)
        if params is None or len(params) < 2:
            nodes.append(n)
            continue
        taken = all_names(model) if taken is None else taken
        stem = n.name or n.output[0]
        current = n.input[0]
        for k, (s, e, a, t) in enumerate(params):
            vecs = [
                int64_constant(taken, f"{stem}_{what}{k}", [v]) for what, v in zip("seat", (s, e, a, t), strict=True)
            ]
            nodes.extend(vecs)
            ins = [current, *(c.output[0] for c in vecs)]
            if k == len(params) - 1:
                freed.update(x for x in n.input[1:] if x)
                del n.input[:]
                n.input.extend(ins)
                nodes.append(n)
            else:
                current = fresh_name(taken, f"{stem}_axis{k}")
                nodes.append(
                    onnx.helper.make_node("Slice", ins, [current], name=fresh_name(taken, f"{stem}_axis{k}_node"))
                )
        sites.append(label)
    if sites:
        set_nodes(g, nodes)
        drop_unread(g, freed)
    return sites


REWRITES = (
    Rewrite(
        "slice-per-axis",
        "Slice(x, s, e, [a1, a2, …], t) → one Slice per axis, chained (Slice-10/11/13: each axis clamped on its own)",
        split,
    ),
)

FREEDOMS = (
    Freedom(
        "slice-axes-one-at-a-time",
        "operator schemas",
        "Operators.md Slice-10/11/13 (starts, ends, axes, steps: each listed axis sliced on its own; axes omitted: "
        "[0 … len(starts)-1], steps omitted: 1)",
        "A Slice of several axes is the same tensor as one Slice per axis applied one after another.",
        ("slice-per-axis",),
        "main-graph Slice nodes (opset >= 10) with static starts, ends, axes and steps naming two axes or more; "
        "one way (merging the chain is a pass's work)",
    ),
)
