"""The window-length rules (`window-pads-length` …, :func:`passcheck.oracles.spec_rules.spatial_length`) read the
rank from input 0, else from the weight input. QLinearConv's weight is input 3 (Operators.md QLinearConv:
``x, x_scale, x_zero_point, w, …``); its input 1 is the scalar ``x_scale``, whose rank 0 would give "-2 spatial
axes". Met on the rewrite ``rank-opaque-view`` (``x`` of unknown rank): a valid form was reported as breaking
the spec."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from passcheck.mutations.registry import REWRITES
from passcheck.oracles.conformance import evaluate


def qlinearconv(pads=(0, 0, 0, 0)) -> onnx.ModelProto:
    """``y = QLinearConv(x, 0.5, 0, w, 0.5, 0, 1.0, 0)``, ``x: uint8[1, 1, 4, 4]``, ``w: uint8[1, 1, 3, 3]``."""
    inits = [
        numpy_helper.from_array(np.array(0.5, np.float32), "s"),
        numpy_helper.from_array(np.array(0, np.uint8), "z"),
        numpy_helper.from_array(np.ones((1, 1, 3, 3), np.uint8), "w"),
        numpy_helper.from_array(np.array(1.0, np.float32), "ys"),
    ]
    node = helper.make_node("QLinearConv", ["x", "s", "z", "w", "s", "z", "ys", "z"], ["y"], pads=list(pads))
    x = helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.UINT8, [1, 1, None, None])
    graph = helper.make_graph([node], "g", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def _lengths(model) -> list[str]:
    return [v.message for v in evaluate(model).violations if v.rule.startswith("window-")]


def test_an_input_of_unknown_rank_reads_the_rank_off_the_weight():
    m = qlinearconv()
    view, _ = REWRITES["rank-opaque-view"].apply(m, ["x"])
    feeds = {"x": np.arange(16, dtype=np.uint8).reshape(1, 1, 4, 4)}
    runs = [ort.InferenceSession(f.SerializeToString()).run(None, feeds)[0] for f in (m, view)]
    assert np.array_equal(*runs)  # a valid form: the same values
    assert _lengths(m) == [] and _lengths(view) == []


def test_pads_of_the_wrong_length_are_still_a_violation_on_either_form():
    m = qlinearconv(pads=(0, 0))
    view, _ = REWRITES["rank-opaque-view"].apply(m, ["x"])
    for form in (m, view):
        assert any("pads has 2 values" in msg and "so 4 are documented" in msg for msg in _lengths(form)), form
