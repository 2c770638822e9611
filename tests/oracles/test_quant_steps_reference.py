"""M324: a quantizer judged against a model that rounds already is allowed both models' roundings.

:func:`passcheck.oracles.quant_steps.allowance` bounds how far a model's roundings move an output from the exact
computation. A quantizer's output is judged against the given model's run; when that model is a QDQ model its own
QuantizeLinear nodes round too, so the two runs may round one value to either side of a step (Operators.md
QuantizeLinear: round half to even). Round 17d's hunt met it on a lifted QDQ base (``pattern-ort-qdq/where-scalar``
at opset 27 under ``neutral-shape-ops``): one output element one ``y_scale`` (0.05) apart, over the allowance of the
quantized model alone (0.0455). Here the quantizer's edit is written by hand (a Q/DQ pair on ``x`` at a scale
``quantize_static`` could calibrate) and both models run in onnxruntime.
Planted breaks: ``combined`` without the given model's own allowance fails the first two tests; ``combined_integer``
without it fails the third.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort

from passcheck.oracles import quant_steps
from passcheck.oracles.numeric import _within_steps, pass_tolerance

BODY = """
  xq = QuantizeLinear (xa, sx, zx)
  xd = DequantizeLinear (xq, sx, zx)
  g = Greater (xa, zero)
  c = Where (g, xd, fill)
  yq = QuantizeLinear (c, sy, zy)
  y = DequantizeLinear (yq, sy, zy)
}"""
INITS = (
    "float sx = {0.02}, uint8 zx = {128}, float sy = {0.05}, uint8 zy = {128}, float zero = {0.0}, float fill = {0.5}"
)
HEAD = '<ir_version: 8, opset_import: ["" : 17]> g (float[4] x) => (float[4] y) '
#: The given QDQ model (the library's where-scalar: Where(x > 0, DQ(Q(x)), 0.5) then Q/DQ).
MODEL = onnx.parser.parse_model(f"{HEAD}<{INITS}> {{\n  xa = Identity (x)" + BODY)
#: What a static quantizer writes on it: x quantized at its calibrated scale first.
QUANTIZED = onnx.parser.parse_model(
    f"{HEAD}<{INITS}, float s2 = {{0.0217}}, uint8 z2 = {{128}}> {{\n"
    "  x2 = QuantizeLinear (x, s2, z2)\n  xa = DequantizeLinear (x2, s2, z2)" + BODY
)
#: 0.1295 rounds to 0.12 in the given model (2.4 steps of 0.05: 0.10) and, moved to 0.1302 by the first rounding, to
#: 0.14 in the quantized one (2.8 steps: 0.15).
X = np.array([0.1295, 2.0, -1.0, 0.5], np.float32)


def _run(m: onnx.ModelProto) -> np.ndarray:
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": X})[0]


def test_the_bound_adds_the_given_models_own_roundings():
    alone = quant_steps.allowance(QUANTIZED)["y"]  # 0.0217/2 + 0.02/2 + 0.05/2
    own = quant_steps.allowance(MODEL, 0.5, False)["y"]  # 0.02/2 + 0.05/2
    assert np.isclose(alone, 0.04585) and np.isclose(own, 0.035)
    assert np.isclose(quant_steps.combined(MODEL, QUANTIZED, pass_rounds=True)["y"], alone + own)
    float_model = onnx.parser.parse_model(f"{HEAD}<float k = {{2.0}}> {{ y = Mul (x, k) }}")
    assert quant_steps.combined(float_model, QUANTIZED, pass_rounds=True) == {"y": alone}  # no rounding of its own


def test_one_step_of_the_shared_output_quantizer_is_within_the_bound():
    expected, got = _run(MODEL), _run(QUANTIZED)
    assert np.isclose(np.max(np.abs(got - expected)), 0.05)  # one y_scale, on the first element only
    assert np.array_equal(got[1:], expected[1:])
    rtol, atol = pass_tolerance("uint8", expected, None, None, quant_steps.combined(MODEL, QUANTIZED, True)["y"])
    assert np.allclose(got, expected, rtol=rtol, atol=atol)


#: The same pair writing the integer output (M238's path): x's step 0.04, the output's 0.03, the quantizer's first
#: rounding at 0.0041, so one step of x (0.04) is more than one of the output.
INT_BODY = BODY.replace("  y = DequantizeLinear (yq, sy, zy)\n", "")
INT_HEAD = HEAD.replace("=> (float[4] y)", "=> (uint8[4] yq)")
INT_INITS = INITS.replace("sx = {0.02}", "sx = {0.04}").replace("sy = {0.05}", "sy = {0.03}")
INT_MODEL = onnx.parser.parse_model(f"{INT_HEAD}<{INT_INITS}> {{\n  xa = Identity (x)" + INT_BODY)
INT_QUANTIZED = onnx.parser.parse_model(
    f"{INT_HEAD}<{INT_INITS}, float s2 = {{0.0041}}, uint8 z2 = {{128}}> {{\n"
    "  x2 = QuantizeLinear (x, s2, z2)\n  xa = DequantizeLinear (x2, s2, z2)" + INT_BODY
)
#: Inside the first rounding's range (127 · 0.0041): 0.0599 and 0.3 each move to the other side of an x step.
INT_X = np.array([0.0599, 0.3, -0.2, 0.45], np.float32)


def test_the_integer_steps_add_the_given_models_own_bound_too():
    def run(m):
        session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        return session.run(None, {"x": INT_X})[0]

    expected, got = run(INT_MODEL), run(INT_QUANTIZED)
    assert np.max(np.abs(got.astype(int) - expected.astype(int))) == 2  # two output steps apart
    assert quant_steps.integer_steps(INT_QUANTIZED) == {"yq": 1}  # floor(0.02205 / 0.03) + 1: its own bound alone
    steps = quant_steps.combined_integer(INT_MODEL, INT_QUANTIZED, pass_rounds=True)
    assert steps == {"yq": 2}  # floor((0.02205 + 0.02) / 0.03) + 1
    assert _within_steps(got, expected, steps["yq"])
