"""Reduce*(keepdims=1) ↔ Reduce*(keepdims=0) followed by Unsqueeze of the reduced axes (ONNX
operator spec, Reduce*: keepdims=1 keeps each reduced axis with size 1, keepdims=0 drops it;
Unsqueeze puts size-1 axes back at the same positions, since both count an axis against the
same rank). Reductions over a fixed, non-empty list of axes, and reductions with ``axes`` omitted (no
attribute, no input or ``""``) and ``noop_with_empty_axes`` 0 on an input of known rank r >= 1: those reduce
every axis (Operators.md ReduceSum-13, Reduce*-18: "the default is to reduce over all the dimensions"), so the
Unsqueeze puts back ``[0 … r-1]`` while the Reduce keeps its axes omitted. Main graph only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    consumers,
    drop_unused,
    fresh_name,
    is_default_domain,
    names_used_in_subgraphs,
    node_label,
    opset,
    static_axes,
    static_tensors,
    value_shapes,
)
from passcheck.mutations._graph_edit import int64_constant

if TYPE_CHECKING:
    import onnx

#: Reduce op → the opset from which ``axes`` is an input (an attribute before).
REDUCE_AXES_INPUT: dict[str, int] = {
    "ReduceSum": 13,
    **dict.fromkeys(
        (
            "ReduceL1",
            "ReduceL2",
            "ReduceLogSum",
            "ReduceLogSumExp",
            "ReduceMax",
            "ReduceMean",
            "ReduceMin",
            "ReduceProd",
            "ReduceSumSquare",
        ),
        18,
    ),
}
#: Unsqueeze takes ``axes`` as an input from opset 13; negative axes from opset 11.
UNSQUEEZE_AXES_INPUT, NEGATIVE_AXES = 13, 11


def _keepdims(node: onnx.NodeProto) -> int:
    return next((a.i for a in node.attribute if a.name == "keepdims"), 1)


def _omitted_axes(n: onnx.NodeProto) -> bool:
    """Whether Reduce node ``n`` gives no ``axes`` (no attribute; no second input, or ``""``) and keeps
    ``noop_with_empty_axes`` 0, its default: it reduces every axis."""
    noop = next((a.i for a in n.attribute if a.name == "noop_with_empty_axes"), 0)
    listed = any(a.name == "axes" for a in n.attribute) or (len(n.input) > 1 and bool(n.input[1]))
    return not noop and not listed


def _reduces(model: onnx.ModelProto, only: frozenset[str] | None, keepdims: int):
    """(index, node, axes) of the main-graph Reduce* nodes with that ``keepdims`` whose axes are fixed: listed
    (attribute or static input), or omitted on an input of known rank (every axis, module docs)."""
    version, static = opset(model), static_tensors(model.graph)
    ranks: dict[str, int] | None = None
    for i, n in enumerate(model.graph.node):
        if not (
            n.op_type in REDUCE_AXES_INPUT
            and is_default_domain(n)
            and _keepdims(n) == keepdims
            and chosen(only, node_label(n, i))
        ):
            continue
        axes = static_axes(n, static)
        if axes is None and _omitted_axes(n):
            if ranks is None:
                ranks = {k: len(v) for k, v in value_shapes(model).items()}
            axes = list(range(ranks.get(n.input[0], 0)))
        if axes and (version >= NEGATIVE_AXES or min(axes) >= 0):
            yield i, n, axes


def to_unsqueeze(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reduce*(keepdims=1) → Reduce*(keepdims=0) → Unsqueeze(the same axes). Sites are the Reduce nodes."""
    import onnx

    g = model.graph
    version = opset(model)
    taken: set[str] | None = None
    after: dict[int, list[onnx.NodeProto]] = {}
    sites = []
    for i, n, axes in _reduces(model, only, keepdims=1):
        taken = all_names(model) if taken is None else taken
        out = n.output[0]
        n.output[0] = fresh_name(taken, f"{out}_reduced")
        if (kd := next((a for a in n.attribute if a.name == "keepdims"), None)) is not None:
            kd.i = 0
        else:
            n.attribute.append(onnx.helper.make_attribute("keepdims", 0))
        base = n.name or out
        if version < UNSQUEEZE_AXES_INPUT:
            after[i] = [
                onnx.helper.make_node(
                    "Unsqueeze", [n.output[0]], [out], name=fresh_name(taken, f"{base}_unsqueeze"), axes=axes
                )
            ]
        else:
            axes_in = n.input[1] if len(n.input) > 1 and n.input[1] else None
            made = []
            if axes_in is None:
                made.append(int64_constant(taken, f"{base}_axes", axes))
                axes_in = made[-1].output[0]
            after[i] = [
                *made,
                onnx.helper.make_node(
                    "Unsqueeze", [n.output[0], axes_in], [out], name=fresh_name(taken, f"{base}_unsqueeze")
                ),
            ]
        sites.append(node_label(n, i))
    if sites:
        nodes = [m for i, n in enumerate(g.node) for m in [n, *after.get(i, [])]]
        del g.node[:]
        g.node.extend(nodes)
    return sites


def _normalized(axes: list[int], rank: int | None) -> list[int] | None:
    if rank is None:
        return sorted(axes) if min(axes) >= 0 else None
    return sorted(a + rank if a < 0 else a for a in axes)


def to_keepdims(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reduce*(keepdims=0) read only by an Unsqueeze of the same axes → Reduce* with the default
    keepdims=1, writing the Unsqueeze's output. Sites are the Reduce nodes."""
    g = model.graph
    static = static_tensors(g)
    readers = consumers(g)
    protected = {o.name for o in g.output} | names_used_in_subgraphs(g)
    found = list(_reduces(model, only, keepdims=0))
    shapes = value_shapes(model) if found else {}
    drop, freed, sites = set(), set(), []
    for i, n, axes in found:
        out = n.output[0]
        users = readers.get(out, [])
        if (
            out in protected
            or len(users) != 1
            or g.node[users[0]].op_type != "Unsqueeze"
            or not is_default_domain(g.node[users[0]])
        ):
            continue
        u = g.node[users[0]]
        u_axes = static_axes(u, static)
        rank = len(shapes[u.output[0]]) if u.output[0] in shapes else None
        norm = _normalized(u_axes, rank) if u_axes else None
        same = bool(u_axes) and (
            sorted(u_axes) == sorted(axes) or (norm is not None and norm == _normalized(axes, rank))
        )
        if u.input[0] != out or not same:
            continue
        keep = [a for a in n.attribute if a.name != "keepdims"]
        del n.attribute[:]
        n.attribute.extend(keep)
        n.output[0] = u.output[0]
        drop.add(users[0])
        freed.update([out, *u.input[1:]])
        sites.append(node_label(n, i))
    if sites:
        nodes = [n for j, n in enumerate(g.node) if j not in drop]
        del g.node[:]
        g.node.extend(nodes)
        drop_unused(g, freed)
    return sites


REWRITES = (
    Rewrite(
        "keepdims-unsqueeze",
        "Reduce*(keepdims=1, fixed or omitted axes) → Reduce*(keepdims=0) then Unsqueeze(the reduced axes)",
        to_unsqueeze,
        inverse="unsqueeze-keepdims",
    ),
    Rewrite(
        "unsqueeze-keepdims",
        "Reduce*(keepdims=0, fixed or omitted axes) then Unsqueeze(the reduced axes) → Reduce*(keepdims=1)",
        to_keepdims,
        inverse="keepdims-unsqueeze",
    ),
)
