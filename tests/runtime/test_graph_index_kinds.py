"""Which attribute types the graph index reads as holding a subgraph or opening a scope (IR.md §Attributes:
GRAPH = 5, GRAPHS = 10; an attribute written before ``type`` existed is UNDEFINED = 0 with its field set):
behaviours survivors of ``bench/mutation_score.py`` showed unguarded."""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from passcheck.runtime import graph_index


def _body(op: str) -> onnx.GraphProto:
    return helper.make_graph(
        [helper.make_node(op, ["a"], ["b"])],
        op,
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [2])],
    )


def _model(node: onnx.NodeProto) -> onnx.ModelProto:
    g = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("custom.x", 1)])


def test_a_graphs_attribute_holds_subgraphs_and_opens_a_scope():
    """Mutants killed: ``_MAYBE_GRAPH = (0, 5, 10)`` → ``(0, 5, 11)`` and ``_GRAPH = (5, 10)`` → ``(5, 11)``:
    a node whose GRAPHS attribute lists bodies was read as holding no subgraph, or as no scope."""
    node = helper.make_node("Branches", ["x"], ["y"], domain="custom.x", bodies=[_body("Relu"), _body("Neg")])
    assert node.attribute[0].type == onnx.AttributeProto.GRAPHS
    idx = graph_index.index_of(_model(node))
    (row,) = idx.nodes
    assert (row.subgraph, row.scoped, idx.has_subscopes) == (True, True, True)


def test_an_untyped_attribute_with_its_graph_set_holds_a_subgraph_but_opens_no_typed_scope():
    """Mutant killed: ``_MAYBE_GRAPH = (0, 5, 10)`` → ``(1, 5, 10)``: an attribute of an old model (type
    UNDEFINED, the ``g`` field set) was read as holding no subgraph."""
    node = helper.make_node("If", ["c"], ["y"], then_branch=_body("Relu"), else_branch=_body("Neg"))
    for a in node.attribute:
        a.ClearField("type")
    assert [a.type for a in node.attribute] == [onnx.AttributeProto.UNDEFINED] * 2
    (row,) = graph_index.index_of(_model(node)).nodes
    assert (row.subgraph, row.scoped) == (True, False)
