"""Shape + Slice/Gather on dim 0 ↔ Shape(start, end) (ONNX operator spec, Shape-15: ``start`` and
``end`` select dims with Slice's clamping and negative-index rules; seed 003 §2). Opset >= 15."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

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
    static_tensors,
)

if TYPE_CHECKING:
    import onnx

INT64_MAX = np.iinfo(np.int64).max
MIN_OPSET = 15


def _scalar(t: onnx.TensorProto | None, *, rank: int | None = 1) -> int | None:
    from onnx import numpy_helper

    if t is None:
        return None
    a = numpy_helper.to_array(t)
    if a.dtype.kind not in "iu" or a.size != 1 or (rank is not None and a.ndim != rank):
        return None
    return int(a.reshape(-1)[0])


def _graph_outputs(graph: onnx.GraphProto) -> set[str]:
    return {o.name for o in graph.output}


def to_attrs(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Shape → Slice(starts, ends[, axes=[0], steps=[1]]) or Shape → Gather(axis=0, one index) becomes Shape(start, end).

    A scalar Gather index becomes Shape(start, end) → Squeeze (the [1] result back to a scalar).
    Only a Shape with no start/end, read by that one node, not a graph output, not read by a
    subgraph, with static slice parameters. Constant nodes left unused are removed. Sites are the
    Shape nodes (each absorbs its Slice/Gather reader).
    """
    import onnx

    if opset(model) < MIN_OPSET:
        return []
    g = model.graph
    static = static_tensors(g)
    users = consumers(g)
    protected = _graph_outputs(g) | names_used_in_subgraphs(g)
    sites, drop, squeezes = [], set(), {}
    taken: set[str] | None = None
    for i, n in enumerate(g.node):
        if (
            n.op_type != "Shape"
            or not is_default_domain(n)
            or n.attribute
            or n.output[0] in protected
            or not chosen(only, node_label(n, i))
        ):
            continue
        readers = users.get(n.output[0], [])
        if len(readers) != 1 or readers[0] in drop:
            continue
        j = readers[0]
        c = g.node[j]
        if not is_default_domain(c) or list(c.input).count(n.output[0]) != 1 or c.input[0] != n.output[0]:
            continue
        end: int | None
        if c.op_type == "Slice" and not c.attribute and 3 <= len(c.input) <= 5:
            start, end = _scalar(static.get(c.input[1])), _scalar(static.get(c.input[2]))
            axis = _scalar(static.get(c.input[3])) if len(c.input) > 3 and c.input[3] else 0
            step = _scalar(static.get(c.input[4])) if len(c.input) > 4 and c.input[4] else 1
            if start is None or end is None or axis not in (0, -1) or step != 1:
                continue
            squeeze = False
        elif (
            c.op_type == "Gather"
            and len(c.input) == 2
            and all(a.name == "axis" and a.i in (0, -1) for a in c.attribute)
        ):
            t = static.get(c.input[1])
            start = _scalar(t, rank=None)
            if start is None or t is None or len(t.dims) > 1:
                continue
            end, squeeze = start + 1, len(t.dims) == 0
            if end == 0:
                end = None
        else:
            continue
        del n.attribute[:]
        n.attribute.append(onnx.helper.make_attribute("start", start))
        if end is not None and end < INT64_MAX:
            n.attribute.append(onnx.helper.make_attribute("end", end))
        if squeeze:
            taken = all_names(model) if taken is None else taken
            n.output[0] = fresh_name(taken, c.output[0] + "_shape")
            squeezes[j] = onnx.helper.make_node("Squeeze", [n.output[0]], [c.output[0]], name=c.name)
        else:
            n.output[0] = c.output[0]
        drop.add(j)
        sites.append(node_label(n, i))
    if not sites:
        return []
    read_params = {name for j in drop for name in g.node[j].input[1:]}
    new_nodes = []
    for j, n in enumerate(g.node):
        if j in squeezes:
            new_nodes.append(squeezes[j])
        elif j not in drop:
            new_nodes.append(n)
    del g.node[:]
    g.node.extend(new_nodes)
    drop_unused(g, read_params, initializers=False)
    return sites


def to_slice(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Shape(start[, end]) → Shape followed by Slice(starts=[start], ends=[end or INT64_MAX], axes=[0]) on Constant inputs."""
    import onnx

    if opset(model) < MIN_OPSET:
        return []
    g = model.graph
    taken = all_names(model)
    sites, new_nodes = [], []
    for i, n in enumerate(g.node):
        attrs = {a.name: a.i for a in n.attribute}
        if (
            n.op_type != "Shape"
            or not is_default_domain(n)
            or not attrs
            or set(attrs) - {"start", "end"}
            or not chosen(only, node_label(n, i))
        ):
            new_nodes.append(n)
            continue
        out = n.output[0]
        base = n.name or out
        params = {}
        for key, val in (("starts", attrs.get("start", 0)), ("ends", attrs.get("end", INT64_MAX)), ("axes", 0)):
            params[key] = fresh_name(taken, f"{base}_{key}")
            new_nodes.append(
                onnx.helper.make_node(
                    "Constant",
                    [],
                    [params[key]],
                    name=fresh_name(taken, f"{base}_{key}_node"),
                    value=onnx.helper.make_tensor("", onnx.TensorProto.INT64, [1], [val]),
                )
            )
        mid = fresh_name(taken, out + "_shape")
        del n.attribute[:]
        n.output[0] = mid
        new_nodes.append(n)
        new_nodes.append(
            onnx.helper.make_node(
                "Slice",
                [mid, params["starts"], params["ends"], params["axes"]],
                [out],
                name=fresh_name(taken, f"{base}_slice"),
            )
        )
        sites.append(node_label(n, i))
    if sites:
        del g.node[:]
        g.node.extend(new_nodes)
    return sites


REWRITES = (
    Rewrite(
        "shape-start-end",
        "Shape followed by a dim-0 Slice/Gather with static parameters → Shape(start, end) (opset >= 15)",
        to_attrs,
        inverse="shape-then-slice",
    ),
    Rewrite(
        "shape-then-slice",
        "Shape(start, end) → Shape followed by Slice on axis 0 (opset >= 15)",
        to_slice,
        inverse="shape-start-end",
    ),
)
