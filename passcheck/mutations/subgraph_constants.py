"""Initializer ↔ Constant node inside If / Loop / Scan bodies (issue 18.3). ONNX rule: a subgraph
is a GraphProto and may hold its own initializers (IR spec, "Graphs" and "Names Within a
Graph": names are unique across the model and its subgraphs); an initializer that is not an
input is a constant, as is Constant(value=tensor) (Constant-1; every tensor type since
Constant-9). Sites are the value names (unique model-wide)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, is_default_domain, opset, subgraphs
from passcheck.mutations._only import wanted
from passcheck.mutations.initializers import ALL_TYPES_OPSET

if TYPE_CHECKING:
    import onnx


def _bodies(graph: "onnx.GraphProto") -> Iterator["onnx.GraphProto"]:
    """Every subgraph at any depth below ``graph`` (not ``graph`` itself)."""
    for n in graph.node:
        for sg in subgraphs(n):
            yield sg
            yield from _bodies(sg)


def to_constant(model: "onnx.ModelProto", only: Collection[str] | None = None) -> list[str]:
    """Each subgraph initializer that is not that subgraph's input → a Constant node at the top of its subgraph."""
    import onnx

    floats = {onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16}
    taken: set[str] | None = None
    sites = []
    for g in list(_bodies(model.graph)):
        inputs = {v.name for v in g.input}
        moved = [t for t in g.initializer if t.name not in inputs and wanted(only, t.name)
                 and (opset(model) >= ALL_TYPES_OPSET or t.data_type in floats)]
        if not moved:
            continue
        taken = all_names(model) if taken is None else taken
        nodes = [onnx.helper.make_node("Constant", [], [t.name], name=fresh_name(taken, f"{t.name}_constant"), value=t) for t in moved]
        names = {t.name for t in moved}
        keep = [t for t in g.initializer if t.name not in names]
        del g.initializer[:]
        g.initializer.extend(keep)
        rest = list(g.node)
        del g.node[:]
        g.node.extend(nodes + rest)
        sites += [t.name for t in moved]
    return sites


def to_initializer(model: "onnx.ModelProto", only: Collection[str] | None = None) -> list[str]:
    """Each Constant(value=tensor) inside a subgraph → an initializer of that subgraph, same name (IR version >= 4)."""
    import onnx

    if model.ir_version < 4:
        return []
    sites = []
    for g in list(_bodies(model.graph)):
        keep = []
        for n in g.node:
            if (n.op_type == "Constant" and is_default_domain(n) and len(n.attribute) == 1 and n.attribute[0].name == "value"
                    and n.attribute[0].t.data_location != onnx.TensorProto.EXTERNAL and wanted(only, n.output[0])):
                t = onnx.TensorProto()
                t.CopyFrom(n.attribute[0].t)
                t.name = n.output[0]
                g.initializer.append(t)
                sites.append(n.output[0])
            else:
                keep.append(n)
        if len(keep) != len(g.node):
            del g.node[:]
            g.node.extend(keep)
    return sites


REWRITES = (
    Rewrite("subgraph-initializer-to-constant", "an initializer inside an If/Loop/Scan body → a Constant(value=tensor) node there",
            to_constant, inverse="subgraph-constant-to-initializer", detail="values"),
    Rewrite("subgraph-constant-to-initializer", "a Constant(value=tensor) node inside an If/Loop/Scan body → an initializer of that body (IR >= 4)",
            to_initializer, inverse="subgraph-initializer-to-constant", detail="values"),
)
