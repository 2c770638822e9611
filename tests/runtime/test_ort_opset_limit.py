"""onnxruntime's stated opset support: a form or a pass output stamped above it is ``unavailable``
(onnxruntime refuses it by policy), not a finding against the form or the pass."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.runtime import limits

# the text onnxruntime 1.28 gives for a model stamped ai.onnx 27 (onnx 1.22 defines 27)
REFUSAL = (
    "[ONNXRuntimeError] : 1 : FAIL : model_load_utils.h:46 ONNX Runtime only *guarantees* support for models "
    "stamped with official released onnx opset versions. Opset 27 is under development and support for this "
    "is limited. The operator schemas and or other functionality may change before next ONNX release and in "
    "this case ONNX Runtime will not guarantee backward compatibility. Current official support for domain "
    "ai.onnx is till opset 26."
)


def _relu(opset: int) -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def test_the_stated_limit_is_read_from_the_refusal():
    assert limits.stated_limit(REFUSAL) == ("ai.onnx", 26)
    assert limits.stated_limit("INVALID_ARGUMENT : Failed to load model: Unsupported data type") is None


def test_the_installed_onnxruntime_is_probed_for_real():
    limit = limits.ort_opset_limit()
    assert limit is None or limit < onnx.defs.onnx_opset_version()
    assert limits.beyond_onnxruntime(_relu(13)) is None


def test_an_onnx_newer_than_onnxruntime_gets_the_limit_onnxruntime_states_when_it_refuses(monkeypatch):
    """onnx defining an opset beyond what this onnxruntime supports (a newer onnx beside it): the
    real probe is refused, and the limit it reads is onnxruntime's stated one, which loads."""
    import onnxruntime as ort

    newest = onnx.defs.onnx_opset_version() + 7
    monkeypatch.setattr(onnx.defs, "onnx_opset_version", lambda: newest)
    limits.ort_opset_limit.cache_clear()
    try:
        limit = limits.ort_opset_limit()
    finally:
        limits.ort_opset_limit.cache_clear()
    assert limit is not None and limit < newest, limit
    ort.InferenceSession(_relu(limit).SerializeToString(), providers=["CPUExecutionProvider"])
    with pytest.raises(Exception, match=f"official support for domain ai.onnx is till opset {limit}"):
        ort.InferenceSession(_relu(limit + 1).SerializeToString(), providers=["CPUExecutionProvider"])


def test_forms_and_outputs_above_the_limit_are_unavailable(monkeypatch):
    monkeypatch.setattr(limits, "ort_opset_limit", lambda: 13)
    report = check_model(_relu(13), ["onnx:convert-opset-up"], forms={"newer": _relu(15)}, isolation=False)
    newer = [c for c in report.cells if c.form == "newer"]
    assert newer and all(c.status == "unavailable" and not c.findings and "up to 13" in c.error for c in newer), newer
    up = next(c for c in report.cells if c.form == "common" and c.pass_id == "onnx:convert-opset-up")
    # the converter's output is stamped above 13: onnxruntime would refuse it, so it is not judged
    # (no 'fails to run' finding)
    assert up.status == "unavailable" and not up.findings and "cannot be run here" in up.error, up
    common_input = next(c for c in report.cells if c.form == "common" and c.pass_id == "input")
    assert common_input.verdict == "ok", common_input


def test_an_onnx_writing_a_newer_ir_than_onnxruntime_reads_gets_onnxruntime_s_stated_ir_limit(monkeypatch):
    """onnx 1.16 writes IR 10 for opset 21, onnxruntime 1.17 reads IR 9: the real probe is refused, the
    limit read is onnxruntime's stated one, and a form above it is ``unavailable`` (with that limit) rather
    than a ``rejected`` finding against the form; the opset probe is then asked at an IR onnxruntime reads.
    A form below the limit loads (mutant killed: ``model.ir_version > ir_limit`` → ``!=``)."""
    import onnxruntime as ort

    newest = onnx.IR_VERSION + 7
    monkeypatch.setattr(onnx, "IR_VERSION", newest)
    limits.ort_ir_limit.cache_clear()
    limits.ort_opset_limit.cache_clear()
    try:
        limit = limits.ort_ir_limit()
        assert limits.ort_opset_limit() is None  # this onnxruntime loads onnx's newest opset at an IR it reads
        assert limit is not None and limit < newest, limit
        model = _relu(13)
        assert model.ir_version < limit and limits.beyond_onnxruntime(model) is None  # below the limit: loads
        model.ir_version = limit
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        assert limits.beyond_onnxruntime(model) is None
        model.ir_version = limit + 1
        with pytest.raises(Exception, match=f"max supported IR version: {limit}"):
            ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        assert f"loads IR versions up to {limit}" in limits.beyond_onnxruntime(model)
        report = check_model(_relu(13), ["ort:basic"], forms={"newer-ir": model}, isolation=False)
    finally:
        limits.ort_ir_limit.cache_clear()
        limits.ort_opset_limit.cache_clear()
    newer = [c for c in report.cells if c.form == "newer-ir"]
    assert newer and all(c.status == "unavailable" and not c.findings for c in newer), newer
