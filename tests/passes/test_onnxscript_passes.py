"""``onnxscript:rewrite`` and ``onnxscript:optimize-for-ort`` run onnxscript's real rewriters:
each rewrites its pattern, the output runs in onnxruntime and computes what the input computes."""

from __future__ import annotations

import math

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.api import check_model


def _model(nodes, consts: dict[str, float]) -> onnx.ModelProto:
    inits = [numpy_helper.from_array(np.array(v, dtype=np.float32), k) for k, v in consts.items()]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 8])],
        initializer=inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)


def _only_cell(report, pass_id):
    cells = [c for c in report.cells if c.pass_id == pass_id]
    assert len(cells) == 1, report.cells
    return cells[0]


def test_rewrite_applies_its_default_rules():
    # Mul by one is a no-op rule; Max then Min with constant bounds is the Min/Max → Clip rule.
    model = _model(
        [
            helper.make_node("Mul", ["x", "one"], ["m"]),
            helper.make_node("Max", ["m", "lo"], ["c"]),
            helper.make_node("Min", ["c", "hi"], ["y"]),
        ],
        {"one": 1.0, "lo": -1.0, "hi": 1.0},
    )
    cell = _only_cell(check_model(model, ["onnxscript:rewrite"]), "onnxscript:rewrite")
    assert cell.status == "changed" and cell.verdict == "ok", (cell.status, cell.error, cell.findings)
    assert "Clip" in cell.ops_after and not {"Mul", "Max", "Min"} & set(cell.ops_after), cell.ops_after


def test_optimize_for_ort_fuses_an_erf_gelu_into_the_contrib_op():
    # 0.5 * (x * (Erf(x / sqrt(2)) + 1)): the decomposed GELU an exporter writes.
    model = _model(
        [
            helper.make_node("Div", ["x", "sqrt2"], ["d"]),
            helper.make_node("Erf", ["d"], ["e"]),
            helper.make_node("Add", ["e", "one"], ["a"]),
            helper.make_node("Mul", ["x", "a"], ["m"]),
            helper.make_node("Mul", ["half", "m"], ["y"]),
        ],
        {"sqrt2": math.sqrt(2), "one": 1.0, "half": 0.5},
    )
    cell = _only_cell(check_model(model, ["onnxscript:optimize-for-ort"]), "onnxscript:optimize-for-ort")
    assert cell.status == "changed" and cell.verdict == "ok", (cell.status, cell.error, cell.findings)
    assert cell.ops_after == {"com.microsoft::Gelu": 1}, cell.ops_after
