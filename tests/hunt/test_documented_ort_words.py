"""onnxruntime's words for a converted model the checker refuses meet the checker's row (round 22c, M517).
onnxconverter-common's float16 conversion writes models the checker refuses; onnxruntime refuses the same node in
other words, as a ``numeric`` "fails to run" finding on a converted output or as a crash of
``auto_convert_mixed_precision``, whose search runs onnxruntime on each trial model
(``get_tensor_values_using_ort``). Row 1295 (a ``Cast(to=FLOAT)`` whose output is declared float16): onnxruntime's
"Type (tensor(float16)) of output arg (…) does not match expected type (tensor(float))" is the checker's "Inferred
elem type differs from existing elem type: (1) vs (10)". Row 835 (MeanVarianceNormalization's body: float constants
beside T): onnxruntime expands the same body and refuses it ("Type parameter (T) of Optype (Add) bound to different
types")."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper, numpy_helper

from passcheck.hunt import documented
from passcheck.signature import Signature

float16 = pytest.importorskip("onnxconverter_common.float16")


def _ort_refusal(model: onnx.ModelProto) -> str:
    with pytest.raises(Exception) as info:  # noqa: PT011 - onnxruntime's Fail has no public class
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return str(info.value)


def _converted(nodes, inputs, output, inits=(), opset=17) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, [output], list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    return float16.convert_float_to_float16(model, keep_io_types=True)


def test_onnxruntimes_words_for_a_cast_declared_float16_are_row_1295():
    f = onnx.TensorProto.FLOAT
    model = _converted(
        [helper.make_node("Cast", ["i"], ["c"], to=f, name="cast"), helper.make_node("Add", ["c", "b"], ["y"])],
        [helper.make_tensor_value_info("i", onnx.TensorProto.INT64, [3])],
        helper.make_tensor_value_info("y", f, [3]),
        [numpy_helper.from_array(np.ones(3, np.float32), "b")],
    )
    words = _ort_refusal(model)
    assert "of output arg (c) of node (cast) does not match expected type (tensor(float))" in words
    message = f"occ:auto-mixed-precision crashed on this form only (accepted: common): {words}"
    sig = Signature("occ:auto-mixed-precision", "acceptance", "rejected", (), "neutral-elementwise", "Fail")
    row = documented.which(sig.key, {"signature": sig.to_json(), "message": message})
    assert row is not None and row["row"] == "1295"


def test_onnxruntimes_words_for_mvn_at_float16_are_row_835():
    f = onnx.TensorProto.FLOAT
    model = _converted(
        [helper.make_node("MeanVarianceNormalization", ["x"], ["y"], name="mvn")],
        [helper.make_tensor_value_info("x", f, [2, 3, 4, 5])],
        helper.make_tensor_value_info("y", f, [2, 3, 4, 5]),
        opset=13,
    )
    words = _ort_refusal(model)
    assert "bound to different types (tensor(float16) and tensor(float)" in words
    message = f"the output of polygraphy:fp16 fails to run (binding 0): {words}"
    sig = Signature("polygraphy:fp16", "numeric", "wrong-result", ("MeanVarianceNormalization",), "op", "")
    rec = {"signature": sig.to_json(), "message": message}
    assert documented.which(sig.key, rec)["row"] == "835"
    other = Signature("polygraphy:fp16", "numeric", "wrong-result", ("Mul",), "op", "")  # no MVN: not row 835
    found = documented.which(other.key, {"signature": other.to_json(), "message": message})
    assert found is None or found["row"] != "835"


def test_without_the_runtime_words_rule_the_crash_meets_no_row(monkeypatch):
    """Planted break: row 1295's rule for onnxruntime's words removed (before M517) → the crash is new."""
    message = (
        "occ:auto-mixed-precision crashed: Fail: [ONNXRuntimeError] : 1 : FAIL : Type Error: Type (tensor(float16)) "
        "of output arg (c) of node (cast) does not match expected type (tensor(float))."
    )
    strip = [
        {**e, "match": [r for r in documented.rules(e) if "output arg" not in r.get("message", "")]}
        if "match" in e
        else e
        for e in documented.entries()
    ]
    monkeypatch.setattr(documented, "entries", lambda: tuple(strip))
    sig = Signature("occ:auto-mixed-precision", "acceptance", "rejected", (), "neutral-op", "Fail")
    assert documented.which(sig.key, {"signature": sig.to_json(), "message": message}) is None


def test_a_qdq_matmul_of_an_int32_weight_refused_at_extended_is_row_51():
    """found.md row 51 (session 14's table): DequantizeLinear-13 takes int32, QLinearMatMul does not; the hunt's
    ``vary:elem-int32`` pairs (round 21k) meet it by onnxruntime's words (M517)."""
    f = onnx.TensorProto.FLOAT
    inits = [
        numpy_helper.from_array(np.array(0.02, np.float32), "sx"),
        numpy_helper.from_array(np.array(0, np.int8), "zx"),
        numpy_helper.from_array(np.arange(32, dtype=np.int32).reshape(8, 4) - 16, "mq"),
        numpy_helper.from_array(np.array(0.01, np.float32), "sw"),
        numpy_helper.from_array(np.array(0, np.int32), "zw"),
        numpy_helper.from_array(np.array(0.05, np.float32), "sy"),
        numpy_helper.from_array(np.array(0, np.int8), "zy"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
        helper.make_node("DequantizeLinear", ["mq", "sw", "zw"], ["wd"]),
        helper.make_node("MatMul", ["xd", "wd"], ["m"], name="matmul"),
        helper.make_node("QuantizeLinear", ["m", "sy", "zy"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", f, [2, 8])],
        [helper.make_tensor_value_info("y", f, [2, 4])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model, full_check=True)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    with pytest.raises(Exception, match="QLinearMatMul") as info:  # noqa: PT011 - onnxruntime's Fail has no class
        ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    sig = Signature("ort:all", "acceptance", "rejected", (), "vary:elem-int32", "InvalidGraph")
    message = f"ort:all declined: {info.value}"
    assert documented.which(sig.key, {"signature": sig.to_json(), "message": message})["row"] == "51"
