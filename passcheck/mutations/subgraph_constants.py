"""Initializer ↔ Constant node inside If / Loop / Scan bodies (issue 18.3). ONNX rule: a subgraph
is a GraphProto and may hold its own initializers (IR spec, "Graphs" and "Names Within a
Graph": names are unique across the model and its subgraphs); an initializer that is not an
input is a constant, as is Constant(value=tensor) (Constant-1; every tensor type since
Constant-9). Sites are the value names (unique model-wide)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, is_default_domain, subgraphs
from passcheck.mutations._only import wanted
from passcheck.mutations.initializers import graph_to_constant

if TYPE_CHECKING:
    import onnx


def _bodies(graph: onnx.GraphProto) -> Iterator[onnx.GraphProto]:
    """Every subgraph at any depth below ``graph`` (not ``graph`` itself)."""
    for n in graph.node:
        for sg in subgraphs(n):
            yield sg
            yield from _bodies(sg)


def to_constant(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each subgraph initializer that is not that subgraph's input → a Constant node at the top of its subgraph."""
    return [name for g in list(_bodies(model.graph)) for name in graph_to_constant(model, g, only)]


def to_initializer(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each Constant(value=tensor) inside a subgraph → an initializer of that subgraph, same name (IR version >= 4)."""
    import onnx

    if model.ir_version < 4:
        return []
    sites = []
    for g in list(_bodies(model.graph)):
        keep = []
        for n in g.node:
            if (
                n.op_type == "Constant"
                and is_default_domain(n)
                and len(n.attribute) == 1
                and n.attribute[0].name == "value"
                and n.attribute[0].t.data_location != onnx.TensorProto.EXTERNAL
                and wanted(only, n.output[0])
            ):
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
    Rewrite(
        "subgraph-initializer-to-constant",
        "an initializer inside an If/Loop/Scan body → a Constant(value=tensor) node there",
        to_constant,
        inverse="subgraph-constant-to-initializer",
        detail="values",
    ),
    Rewrite(
        "subgraph-constant-to-initializer",
        "a Constant(value=tensor) node inside an If/Loop/Scan body → an initializer of that body (IR >= 4)",
        to_initializer,
        inverse="subgraph-initializer-to-constant",
        detail="values",
    ),
)
