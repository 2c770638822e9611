"""The conformance rule resize-output-dims (passcheck.oracles.spec_rules.resize_output_dims): a Resize / Upsample
output dim the model states is floor(input_dim * scale) of the stored scale (Operators.md Resize, Upsample).
onnx shape inference before 1.22 computed that product in float32 (onnx/onnx#7874) and states 5 for dim 3 and
scale float32(5/3), where the product 4.9999999 gives 4 and onnx's reference evaluator runs 4; onnxruntime runs 5
too, so only the spec's arithmetic tells: docs/recall.md R6."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from passcheck.oracles.conformance import evaluate

SCALE = np.float32(5 / 3)


def _resize(out_dims, scales=(1.0, 1.0, SCALE, SCALE), opset=13, op="Resize"):
    inputs = ["x", "", "sc"] if op == "Resize" else ["x", "sc"]
    node = helper.make_node(op, inputs, ["y"], mode="nearest")
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 2, 3, 3])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, out_dims)],
        initializer=[numpy_helper.from_array(np.array(scales, np.float32), "sc")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def _rule(model):
    return [v.message for v in evaluate(model).violations if v.rule == "resize-output-dims"]


@pytest.mark.parametrize(("op", "opset"), [("Resize", 13), ("Resize", 19), ("Upsample", 9)])
def test_a_stated_dim_off_the_exact_floor_is_a_violation(op, opset):
    (message,) = _rule(_resize([1, 2, 5, 5], op=op, opset=opset))
    assert message.startswith(f"output dim 2 is stated 5; floor(3 x {float(SCALE)!r}) = 4")


def test_the_exact_floor_and_unstated_dims_hold():
    assert _rule(_resize([1, 2, 4, 4])) == []
    assert _rule(_resize([1, 2, None, None])) == []
    assert _rule(_resize([1, 2, 6, 6], scales=(1.0, 1.0, 2.0, 2.0))) == []


def test_the_rule_agrees_with_onnx_reference_evaluator():
    """The spec's value (4) is what onnx's reference implementation runs; the rule names that value."""
    model = _resize([1, 2, None, None])
    (y,) = ReferenceEvaluator(model).run(None, {"x": np.zeros((1, 2, 3, 3), np.float32)})
    assert y.shape == (1, 2, 4, 4)
    assert _rule(_resize([1, 2, *y.shape[2:]])) == []


def test_a_pass_output_stating_the_float32_floor_is_blamed_not_its_input():
    """The judge's conformance oracle reports a violation of a pass output that its input does not have: a form
    with the output dims unstated, a pass that states 5 (as onnx 1.18's inference does)."""
    from passcheck.oracles import conformance

    form, written = _resize([1, 2, None, None]), _resize([1, 2, 5, 5])
    assert not conformance.evaluate(form).violations
    assert [v.rule for v in conformance.evaluate(written).violations] == ["resize-output-dims"]
