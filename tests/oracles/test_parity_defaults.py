"""Parity does not blame a form for what an overridable default forbids (issue 30, a hunt false
positive): a Conv + BatchNormalization whose BatchNormalization scale is also a graph input (an
initializer named like a graph input: a default a caller may override, IR.md §Graphs) cannot be
fused, and onnxruntime rightly leaves it; the same scale as a plain initializer is fused. Real
onnxruntime (``ort:basic``)."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.api import check_model


def _conv_bn(scale_is_input: bool, conv_weight_is_input: bool = False) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((3, 2, 3, 3)).astype(np.float32), "w")]
    for name in ("s", "b", "m"):
        inits.append(numpy_helper.from_array(rng.standard_normal(3).astype(np.float32), name))
    inits.append(numpy_helper.from_array(rng.uniform(0.5, 1.5, 3).astype(np.float32), "v"))
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["y"], name="bn"),
    ]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5, 5])]
    for name, shape, listed in (("s", [3], scale_is_input), ("w", [3, 2, 3, 3], conv_weight_is_input)):
        if listed:
            inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 3, 3])]
    g = helper.make_graph(nodes, "g", inputs, outputs, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def _parity(forms: dict[str, onnx.ModelProto]):
    report = check_model(_conv_bn(False), ["ort:basic"], forms=forms, name="parity/defaults")
    return [f for c in report.cells for f in c.findings if f.oracle == "parity"], report


def test_a_fusion_an_overridable_default_forbids_is_no_missed_optimization():
    found, report = _parity(
        {"scale-default": _conv_bn(True), "weight-default": _conv_bn(False, conv_weight_is_input=True)}
    )
    ran = {c.form: c.status for c in report.cells if c.pass_id == "ort:basic"}
    assert ran["common"] == "changed" and {ran["scale-default"], ran["weight-default"]} <= {"changed", "unchanged"}, ran
    assert found == [], [f.message for f in found]


def test_the_same_fusion_missed_behind_a_constant_is_still_a_finding():
    """Control: the rule looks at defaults only; a form that keeps the BatchNormalization for another
    reason (a no-op ReduceSum between Conv and BatchNormalization, which onnxruntime leaves) is judged as before."""
    detour = _conv_bn(False)
    bn = detour.graph.node[1]
    bn.input[0] = "c2"
    detour.graph.node.insert(1, helper.make_node("ReduceSum", ["c"], ["c2"], name="noop", noop_with_empty_axes=1))
    found, _ = _parity({"detour": detour})
    assert [(f.form, f.kind) for f in found] == [("detour", "missed-optimization")], [f.message for f in found]


GELU = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 8] x{extra}) => (float[2, 8] y)
  <float sqrt2 = {{1.4142135}}, float one = {{1.0}}, float half = {{0.5}}> {{
  d = Div (x, sqrt2)
  e = Erf (d)
  p = Add (e, one)
  m = Mul (x, p)
  y = Mul (m, half)
}}"""


def test_a_fusion_pattern_touching_an_overridable_default_is_no_missed_optimization():
    """onnxruntime's Gelu fusion takes Div, Erf, Add and both Muls; with ``half`` overridable only
    the last Mul reads it, and the rest of the pattern is kept for that reason too."""
    from onnx import parser

    common = parser.parse_model(GELU.format(extra=""))
    half_default = parser.parse_model(GELU.format(extra=", float half"))
    report = check_model(common, ["ort:all"], forms={"half-default": half_default}, name="parity/gelu-default")
    ran = {c.form: c for c in report.cells if c.pass_id == "ort:all"}
    assert ran["common"].status == "changed"  # fused: the pattern is there to miss
    found = [f for c in ran.values() for f in c.findings if f.oracle == "parity"]
    assert found == [], [f.message for f in found]
