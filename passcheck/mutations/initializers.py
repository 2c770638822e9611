"""Initializer ↔ Constant node (ONNX IR spec, "Graphs": an initializer that is not a graph input
is a constant; since IR version 4 it need not be listed as an input). Only non-overridable
initializers move, so the model's interface is unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name, is_default_domain, node_label, opset

if TYPE_CHECKING:
    import onnx

#: Constant-1 only took float types; Constant-9 takes every tensor type.
ALL_TYPES_OPSET = 9


def to_constant(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each initializer that is not also a graph input → a Constant node at the top of the graph."""
    return graph_to_constant(model, model.graph, only)


def graph_to_constant(model: onnx.ModelProto, g: onnx.GraphProto, only, taken: set[str] | None = None) -> list[str]:
    """In graph ``g`` of ``model`` (the main graph or a subgraph), each initializer that is not one
    of ``g``'s inputs and that ``only`` allows → a Constant node at the top of ``g`` (only float
    types before :data:`ALL_TYPES_OPSET`). ``taken``: the model's names, computed when None and
    extended with the new node names. Returns the moved initializer names."""
    import onnx

    inputs = {v.name for v in g.input}
    floats = {onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16}
    moved = [
        t
        for t in g.initializer
        if t.name not in inputs and chosen(only, t.name) and (opset(model) >= ALL_TYPES_OPSET or t.data_type in floats)
    ]
    if not moved:
        return []
    taken = all_names(model) if taken is None else taken
    nodes = [
        onnx.helper.make_node("Constant", [], [t.name], name=fresh_name(taken, f"{t.name}_constant"), value=t)
        for t in moved
    ]
    names = {t.name for t in moved}
    keep = [t for t in g.initializer if t.name not in names]
    del g.initializer[:]
    g.initializer.extend(keep)
    rest = list(g.node)
    del g.node[:]
    g.node.extend(nodes + rest)
    return [t.name for t in moved]


def to_initializer(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each main-graph Constant(value=tensor) → an initializer of the same name (IR version >= 4)."""
    import onnx

    if model.ir_version < 4:
        return []  # before IR 4 every initializer must also be a graph input, which makes it overridable
    g = model.graph
    sites, keep = [], []
    for i, n in enumerate(g.node):
        if (
            n.op_type == "Constant"
            and is_default_domain(n)
            and len(n.attribute) == 1
            and n.attribute[0].name == "value"
            and chosen(only, node_label(n, i))
            and n.attribute[0].t.data_location != onnx.TensorProto.EXTERNAL
        ):
            t = onnx.TensorProto()
            t.CopyFrom(n.attribute[0].t)
            t.name = n.output[0]
            g.initializer.append(t)
            sites.append(node_label(n, i))
        else:
            keep.append(n)
    if sites:
        del g.node[:]
        g.node.extend(keep)
    return sites


REWRITES = (
    Rewrite(
        "initializer-to-constant",
        "a non-input initializer → a Constant(value=tensor) node",
        to_constant,
        inverse="constant-to-initializer",
        detail="initializers",
    ),
    Rewrite(
        "constant-to-initializer",
        "a Constant(value=tensor) node → an initializer (IR version >= 4)",
        to_initializer,
        inverse="initializer-to-constant",
    ),
)
