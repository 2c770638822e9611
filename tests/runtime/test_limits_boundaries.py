"""Boundaries of ``passcheck.runtime.limits`` a surviving mutant moved, with the real onnxruntime:
its stated opset limit (read from a real refusal) and its real missing-kernel error."""

from __future__ import annotations

import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

from passcheck.runtime import limits


def _relu(opset: int, elem: int = TensorProto.FLOAT) -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", elem, [3])],
        [helper.make_tensor_value_info("y", elem, [3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def test_a_model_at_or_below_the_stated_opset_limit_is_loadable_and_one_above_is_not(monkeypatch):
    """An onnx defining opsets beyond this onnxruntime: the limit is the one onnxruntime states; a model
    below it or at it is not ``beyond_onnxruntime``, one above it is (and onnxruntime refuses it)."""
    monkeypatch.setattr(onnx.defs, "onnx_opset_version", lambda: 99)
    limits.ort_opset_limit.cache_clear()
    try:
        limit = limits.ort_opset_limit()
        assert limit is not None and limit > 14, limit
        assert limits.beyond_onnxruntime(_relu(14)) is None
        assert limits.beyond_onnxruntime(_relu(limit)) is None
        above = limits.beyond_onnxruntime(_relu(limit + 1))
    finally:
        limits.ort_opset_limit.cache_clear()
    assert above is not None and f"imports ai.onnx opset {limit + 1}" in above and f"up to {limit}" in above


def test_one_run_failing_for_a_missing_kernel_names_the_op_and_its_version():
    try:
        ort.InferenceSession(_relu(14, TensorProto.INT16).SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - NOT_IMPLEMENTED
        error = str(exc)
    assert limits.missing_kernel(error) == ("Relu", 14)
    reason = limits.no_kernel_reason([error])
    assert reason is not None and "no CPU kernel for Relu(14)" in reason
    assert limits.no_kernel_reason([error, "some other failure"]) is None
