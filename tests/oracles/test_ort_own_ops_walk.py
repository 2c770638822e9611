"""``passcheck.oracles.ort_own_ops`` on models holding onnxruntime's own ai.onnx-domain ops, judged
with the real tools: onnxruntime's schema registry (``get_all_operator_schema``) says what is its own,
``onnx.checker`` judges the copy with those nodes moved out of the ai.onnx domain."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from passcheck.oracles.ort_own_ops import MOVED, contrib_ops, ort_own, without_ort_own

# onnxruntime registers SimplifiedLayerNormalization (since 1) in the ai.onnx domain; onnx has no schema for it
_OWN = "SimplifiedLayerNormalization"


def _model(nodes, opsets, inputs=("x", "s")) -> onnx.ModelProto:
    shapes = {"x": [2, 4], "s": [4], "c": []}
    elems = {"c": TensorProto.BOOL}
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(n, elems.get(n, TensorProto.FLOAT), shapes[n]) for n in inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets], ir_version=8)


def _own(out: str = "y") -> onnx.NodeProto:
    return helper.make_node(_OWN, ["x", "s"], [out], axis=-1, epsilon=1e-5)


def _branch(out: str) -> onnx.GraphProto:
    return helper.make_graph(
        [_own(out)], f"b_{out}", [], [helper.make_tensor_value_info(out, TensorProto.FLOAT, [2, 4])]
    )


def test_onnxruntimes_own_ai_onnx_op_is_found_and_the_rest_is_left_to_the_checker():
    model = _model([_own()], [("", 17)])
    feeds = {"x": np.ones((2, 4), np.float32), "s": np.ones(4, np.float32)}
    ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    assert [n.op_type for n in ort_own(model)] == [_OWN]
    assert contrib_ops(model) == [f"ai.onnx::{_OWN}"]
    try:
        onnx.checker.check_model(model)
        raise AssertionError("the checker accepted an op with no ai.onnx schema")
    except onnx.checker.ValidationError as exc:
        assert f"No Op registered for {_OWN}" in str(exc)
    onnx.checker.check_model(without_ort_own(model))


def test_an_op_onnxruntime_registers_only_in_com_microsoft_is_not_its_own_in_ai_onnx():
    # FusedConv: a com.microsoft contrib op; onnxruntime refuses it in the ai.onnx domain
    model = _model([helper.make_node("FusedConv", ["x", "s"], ["y"])], [("", 17)])
    assert ort_own(model) == [] and contrib_ops(model) == [] and without_ort_own(model) is None


def test_an_op_is_its_own_from_the_opset_onnxruntime_registers_it_at():
    # registered since 1: a model at ai.onnx opset 1 already holds onnxruntime's op
    assert [n.op_type for n in ort_own(_model([_own()], [("", 1)]))] == [_OWN]


def test_nodes_in_subgraphs_are_walked_through_graph_and_graphs_attributes():
    branches = helper.make_node("If", ["c"], ["y"], then_branch=_branch("t"), else_branch=_branch("e"))
    model = _model([branches], [("", 17)], inputs=("x", "s", "c"))
    assert sorted(n.output[0] for n in ort_own(model)) == ["e", "t"]
    holder = helper.make_node("Holder", ["x"], ["y"], domain="org.example")
    holder.attribute.append(helper.make_attribute("bodies", [_branch("b0"), _branch("b1")]))
    model = _model([holder], [("", 17), ("org.example", 1)])
    assert [n.output[0] for n in ort_own(model)] == ["b0", "b1"]


def test_the_copy_imports_the_moved_domain_whatever_other_domains_the_model_imports():
    model = _model([_own("z"), helper.make_node("Identity", ["z"], ["y"])], [("", 17), ("org.example", 1)])
    copy = without_ort_own(model)
    assert {o.domain for o in copy.opset_import} == {"", "org.example", MOVED}
    assert [n.domain for n in copy.graph.node] == [MOVED, ""]
    onnx.checker.check_model(copy)


def test_a_com_microsoft_node_the_model_does_not_import_still_fails_the_checker_in_the_copy():
    """Moving onnxruntime's own ai.onnx nodes must not import ``com.microsoft`` for the model's other nodes."""
    gelu = helper.make_node("Gelu", ["z"], ["y"], domain="com.microsoft")
    copy = without_ort_own(_model([_own("z"), gelu], [("", 17)]))
    with pytest.raises(onnx.checker.ValidationError, match="No opset import for domain 'com.microsoft'"):
        onnx.checker.check_model(copy)
