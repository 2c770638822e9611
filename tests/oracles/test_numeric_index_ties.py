"""The numeric oracle does not blame a pass for an ArgMax index the input model chose among ties its own rounding
made (M258): `y = ArgMax(Softmax(x))` on feeds near 1e-38, where the float32 Softmax is 1/4 everywhere and the input's
run returns index 0; onnxoptimizer's `eliminate_nop_monotone_argmax` (real `onnxoptimizer:optimize`) drops the
Softmax and returns the true index. The same ArgMax on the fed `x` has exact ties (nothing is excused there). Real
onnxoptimizer and onnxruntime sessions, onnx's reference evaluator."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.oracles.index_ties import tied_positions

pytest.importorskip("onnxoptimizer")

TINY = np.array([[1e-38, 3e-38, 2e-38, 0.0], [0.0, 0.0, 4e-38, 1e-38]], np.float32)


def argmax_of(softmax: bool) -> onnx.ModelProto:
    """y = ArgMax(Softmax(x)) (or ArgMax(x)), axis -1, keepdims 0, x: float32[2, 4], y: int64[2]."""
    nodes = [helper.make_node("Softmax", ["x"], ["s"], axis=-1)] if softmax else []
    nodes.append(helper.make_node("ArgMax", ["s" if softmax else "x"], ["y"], axis=-1, keepdims=0))
    graph = helper.make_graph(
        nodes,
        "argmax",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [2])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def test_a_tie_the_softmax_rounding_made_is_named_and_a_fed_tie_or_a_real_difference_is_not():
    expected, true = np.array([0, 0], np.int64), np.array([1, 2], np.int64)
    why = tied_positions(argmax_of(True), {"x": TINY}, "y", true, expected)
    assert why is not None and "2 of 2 positions" in why and "'s'" in why, why
    assert tied_positions(argmax_of(False), {"x": TINY}, "y", true, expected) is None  # x fed: exact data
    wide = np.array([[1.0, 3.0, 2.0, 0.0], [0.0, 0.0, 4.0, 1.0]], np.float32)  # no tie: index 1 and 2 are the maxima
    assert tied_positions(argmax_of(True), {"x": wide}, "y", np.array([2, 3], np.int64), true) is None


def test_the_monotone_argmax_rewrite_on_rounded_ties_is_unchecked_not_wrong():
    report = check_model(
        argmax_of(True), ["onnxoptimizer:optimize"], feeds=[{"x": TINY}], name="numeric/index-ties", isolation=False
    )
    (cell,) = [c for c in report.cells if c.pass_id == "onnxoptimizer:optimize"]
    assert cell.status == "changed", cell  # the Softmax is gone
    assert not [f.message for f in cell.findings if f.oracle == "numeric"], cell.findings
    assert cell.verdict == "unchecked"
    assert "ties in the unoptimized run" in cell.unchecked["output 'y'"], cell.unchecked
