"""The numeric oracle does not blame a pass for an input model that is non-finite only through an input's float
range one node up (M207, IEEE 754 §7.5 underflow): `y = Log(Softmax(x))` with a wide feed, whose float32 Softmax
underflows to 0, so Log gives -inf where float64 gives -200; onnxoptimizer's Log+Softmax fusion (LogSoftmax, real
`onnxoptimizer:optimize`) stays finite. An exact 0 (`Log(Sub(x, x))`) is no underflow. Real onnxoptimizer and
onnxruntime sessions, onnx's reference evaluator."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.oracles.overflow import overflowed_outputs

pytest.importorskip("onnxoptimizer")

WIDE = np.array([[0.0, -200.0, 1.0, -150.0]], np.float32)


def log_of(producer: str) -> onnx.ModelProto:
    """y = Log(producer(x)), float32[1, 4]; producer Softmax (axis -1) or Sub(x, x)."""
    first = (
        helper.make_node("Softmax", ["x"], ["s"], axis=-1)
        if producer == "Softmax"
        else helper.make_node("Sub", ["x", "x"], ["s"])
    )
    info = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4]) for n in ("x", "y")]
    graph = helper.make_graph([first, helper.make_node("Log", ["s"], ["y"])], "log", info[:1], info[1:])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def test_an_underflow_one_node_up_is_the_models_own_and_an_exact_zero_is_not():
    why = overflowed_outputs(log_of("Softmax"), {"x": WIDE})
    assert set(why) == {"y"} and "s recomputed in float64" in why["y"], why
    assert overflowed_outputs(log_of("Sub"), {"x": WIDE}) == {}  # Log(0) is -inf in float64 too: §7.3
    assert overflowed_outputs(log_of("Softmax"), {"x": np.zeros((1, 4), np.float32)}) == {}  # nothing non-finite


def test_the_log_softmax_fusion_that_stays_finite_is_unchecked_not_wrong():
    report = check_model(
        log_of("Softmax"), ["onnxoptimizer:optimize"], feeds=[{"x": WIDE}], name="numeric/underflow", isolation=False
    )
    (cell,) = [c for c in report.cells if c.pass_id == "onnxoptimizer:optimize"]
    assert cell.status == "changed", cell  # Log(Softmax) became LogSoftmax
    assert not [f.message for f in cell.findings if f.oracle == "numeric"], cell.findings
    assert cell.verdict == "unchecked"
    assert "recomputed in float64" in cell.unchecked["output 'y'"], cell.unchecked
