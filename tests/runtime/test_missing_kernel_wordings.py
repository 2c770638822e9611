"""Both wordings onnxruntime uses for a kernel it does not register are environment facts
(passcheck/runtime/limits.py ``missing_kernel``), read from real session errors."""

from __future__ import annotations

import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from passcheck.runtime.limits import missing_kernel, no_kernel_reason


def _session_error(op: str, opset: int, inputs: list[tuple[str, int, list[int]]], **attrs) -> str:
    node = helper.make_node(op, [n for n, _, _ in inputs], ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info("y", inputs[0][1], None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=10)
    try:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as e:
        return str(e)
    pytest.skip(f"onnxruntime {ort.__version__} has a CPU kernel for this {op}: nothing to read")


def test_failed_to_find_kernel_is_a_missing_kernel():
    # T1 float16 with T2 double: two type constraints the spec lets differ, a pair onnxruntime registers no kernel for
    error = _session_error(
        "GridSample", 22, [("x", TensorProto.FLOAT16, [1, 1, 3, 3]), ("grid", TensorProto.DOUBLE, [1, 2, 2, 2])]
    )
    assert missing_kernel(error) == ("GridSample", 22), error
    assert "GridSample(22)" in no_kernel_reason([error, error])


def test_could_not_find_an_implementation_is_a_missing_kernel():
    error = _session_error("Mean", 13, [("x", TensorProto.DOUBLE, [2])])
    assert missing_kernel(error) == ("Mean", 13), error


def test_another_load_error_is_not():
    assert (
        missing_kernel("[ONNXRuntimeError] : 1 : FAIL : Fatal error: x:F(-1) is not a registered function/op") is None
    )
