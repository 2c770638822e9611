"""Squeeze / Unsqueeze / Reduce* ``axes`` attribute ↔ ``axes`` input, with the opset stamp moved
across the version that changed the spelling (issue 15). ONNX rule: Squeeze-13, Unsqueeze-13 and
ReduceSum-13 take ``axes`` as an optional int64 input (required for Unsqueeze), the other Reduce*
ops since version 18; before, an attribute. The same axes mean the same at both versions
(``noop_with_empty_axes`` defaults to 0: absent axes still reduce every axis). Every other op of
the model must keep its schema across the move, or only gain element types (see
:func:`passcheck.mutations._opsets.widened_only`); the stamp stays within what the IR version goes
with, and the moving nodes' element types must be ones the other version takes. All the nodes convert together (one opset stamp), so a selection ``only`` that does not
name every one of them changes nothing. Sites: main-graph node labels, subgraph nodes by output name."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
    subgraphs,
)
from passcheck.mutations._graph_edit import int64_constant
from passcheck.mutations._opsets import (
    changed_ops,
    data_types_allowed,
    default_ops,
    highest_opset,
    schema,
    set_default_opset,
    widened_only,
)

if TYPE_CHECKING:
    import onnx

#: op → the opset whose version takes ``axes`` as an input.
AXES_INPUT_SINCE = {
    "Squeeze": 13,
    "Unsqueeze": 13,
    "ReduceSum": 13,
    **{
        op: 18
        for op in (
            "ReduceL1",
            "ReduceL2",
            "ReduceLogSum",
            "ReduceLogSumExp",
            "ReduceMax",
            "ReduceMean",
            "ReduceMin",
            "ReduceProd",
            "ReduceSumSquare",
        )
    },
}


def _family_nodes(model: onnx.ModelProto) -> Iterator[tuple[onnx.GraphProto, int, onnx.NodeProto, str]]:
    """(graph, index, node, label) for every Squeeze/Unsqueeze/Reduce* node, subgraphs included."""

    def walk(g: onnx.GraphProto, main: bool):
        for i, n in enumerate(g.node):
            if is_default_domain(n) and n.op_type in AXES_INPUT_SINCE:
                yield g, i, n, node_label(n, i) if main else n.output[0]
            for sg in subgraphs(n):
                yield from walk(sg, False)

    yield from walk(model.graph, True)


def _attr(n: onnx.NodeProto, name: str):
    return next((a for a in n.attribute if a.name == name), None)


def _covers(only: Collection[str] | None, labels: list[str]) -> bool:
    """The nodes move together (one opset stamp): a selection must name every one of them."""
    return only is None or set(labels) <= set(only)


def _others_keep(model: onnx.ModelProto, lo: int, hi: int) -> bool:
    ops = default_ops(model)
    if ops is None:
        return False
    moving = {op for op, since in AXES_INPUT_SINCE.items() if lo < since <= hi}
    return all(schema(op, lo) is not None and schema(op, hi) is not None for op in ops) and all(
        widened_only(op, lo, hi) for op in changed_ops(model, lo, hi) - moving
    )


def to_input(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Every ``axes`` attribute of these ops → a Constant int64 input, the stamp raised to 13 or 18."""
    v = opset(model)
    todo = [
        (g, n, label)
        for g, _, n, label in _family_nodes(model)
        if AXES_INPUT_SINCE[n.op_type] > v and _attr(n, "axes") is not None
    ]
    if not todo or not _covers(only, [label for _, _, label in todo]):
        return []
    target = max(AXES_INPUT_SINCE[n.op_type] for _, n, _ in todo)
    if (
        target > highest_opset(model.ir_version)
        or not _others_keep(model, v, target)
        or not data_types_allowed(model, [n for _, n, _ in todo], target)
    ):
        return []
    taken = all_names(model)
    for g, n, _ in todo:
        a = _attr(n, "axes")
        const = int64_constant(taken, f"{n.name or n.output[0]}_axes", list(a.ints))
        n.attribute.remove(a)
        n.input.append(const.output[0])
        g.node.insert(list(g.node).index(n), const)
    set_default_opset(model, target)
    return [label for _, _, label in todo]


def _static_axes(g: onnx.GraphProto, main: dict, name: str) -> list[int] | None:
    from onnx import numpy_helper

    t = static_tensors(g).get(name) or main.get(name)
    if t is None or t.data_type != 7 or len(t.dims) != 1:  # 7: INT64
        return None
    return [int(x) for x in numpy_helper.to_array(t)]


def to_attribute(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Every static ``axes`` input of these ops → the ``axes`` attribute, the stamp lowered to 12 or 17."""
    import onnx

    v = opset(model)
    family = list(_family_nodes(model))
    with_input = [
        (g, n, label)
        for g, _, n, label in family
        if AXES_INPUT_SINCE[n.op_type] <= v and len(n.input) > 1 and n.input[1]
    ]
    if not with_input or not _covers(only, [label for _, _, label in with_input]):
        return []
    target = min(AXES_INPUT_SINCE[n.op_type] for _, n, _ in with_input) - 1
    if not _others_keep(model, target, v):
        return []
    main = static_tensors(model.graph)
    plan = []
    for g, _, n, label in family:
        if not target < AXES_INPUT_SINCE[n.op_type] <= v:
            continue
        noop = _attr(n, "noop_with_empty_axes")
        axes = _static_axes(g, main, n.input[1]) if len(n.input) > 1 and n.input[1] else []
        if axes is None or (not axes and noop is not None and noop.i):
            return []  # computed axes, or "empty axes: no-op", which the attribute spelling cannot say
        plan.append((n, label, axes, noop))
    if not data_types_allowed(model, [n for n, *_ in plan], target):
        return []  # the lower version takes fewer element types (ReduceMin-20 takes bool, -13 does not)
    sites = []
    for n, label, axes, noop in plan:
        if noop is not None:
            n.attribute.remove(noop)
        if len(n.input) > 1:
            had = bool(n.input[1])
            del n.input[1:]
            if axes:
                n.attribute.append(onnx.helper.make_attribute("axes", axes))
            if had:
                sites.append(label)
    set_default_opset(model, target)
    return sites


REWRITES = (
    Rewrite(
        "axes-as-input",
        "Squeeze/Unsqueeze/ReduceSum (opset < 13) and Reduce* (opset < 18) axes attribute → Constant axes input, opset stamp raised",
        to_input,
        inverse="axes-as-attribute",
    ),
    Rewrite(
        "axes-as-attribute",
        "static axes input of Squeeze/Unsqueeze/ReduceSum (opset >= 13) and Reduce* (>= 18) → axes attribute, opset stamp lowered",
        to_attribute,
        inverse="axes-as-input",
    ),
)
