"""``feed-small`` (:mod:`passcheck.hunt.vary_bindings`, M402, round 19f): every float feed scaled by a power of two to
the square root of its type's smallest normal, so the feed (and but in float16 its 8-bit steps) are normal numbers
while a quantity derived from its scale times a weight's (an int32 bias quantized at ``x_scale · w_scale``,
Operators.md QLinearConv / QLinearMatMul) lies ~2^77 below a bias of 1 beside weights of 1. Judged with a real
quantizer: onnxruntime's own ``quantize_static`` (QDQ) with its bias guard turned off
(``QDQDisableWeightAdjustForInt32Bias``: the bias clipped to int32, what 1.18.1 and every QOperator release before
1.23 do) is found on this neighbour and not on another feed kind; the guarded quantizer is found on neither."""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, Form, register
from passcheck.hunt import variation, vary_bindings, vary_probe
from passcheck.hunt.probe import Setting
from passcheck.passes import known_pass_ids, register_pass
from passcheck.passes.ort_quantize import OrtQuantizeAdapter
from tests.hunt.conftest import qdq_gemm

CASE = "feed-test/gemm-bias"
PLANTED = "planted:quantize-static-bias-clipped"
FORM = "vary:feed-small@graph"


class _Clipped(OrtQuantizeAdapter):
    """``quantize_static`` (QDQ) with the weight-scale adjustment for an int32 bias turned off."""

    def __init__(self):
        super().__init__("quantize-static")
        self.id = PLANTED
        self.options = {"extra_options": {"QDQDisableWeightAdjustForInt32Bias": True}}


if PLANTED not in known_pass_ids():
    register_pass(_Clipped())
register(
    Case(id=CASE, forms={"common": Form(qdq_gemm), "uncommon": Form(qdq_gemm, "the same model")}, doc="Gemm", opset=13)
)


def test_every_value_and_step_is_normal_and_one_power_of_two_scales_the_feed():
    import ml_dtypes

    x = np.array([[-1.3, 0.2, 0.74, 2.0]], np.float32)
    for dtype, top in (
        (np.float32, 2.0**-63),
        (np.float16, 2.0**-7),
        (np.float64, 2.0**-511),
        (ml_dtypes.bfloat16, 2.0**-63),
    ):
        small = vary_bindings._changed("feed-small", x.astype(dtype))  # (bfloat16 is no numpy "f" kind)
        wide = np.abs(small.astype(np.float64))
        assert small.dtype == dtype and top / 2 < wide.max() <= top, (dtype, wide.max())
        tiny = float(vary_bindings._finfo(dtype).tiny)
        assert (wide >= tiny).all()  # normal values
        steps = (small.astype(np.float64).max() - small.astype(np.float64).min()) / 255
        assert bool(steps >= tiny) == (dtype is not np.float16), (dtype, steps)  # normal 8-bit steps but in float16
        ratio = small.astype(np.float64) / x.astype(dtype).astype(np.float64)
        assert np.all(ratio == ratio.flat[0]) and np.log2(ratio.flat[0]).is_integer()
    assert ("feed-small", "graph") in set(vary_bindings.candidates(qdq_gemm()))
    assert variation.family(FORM) == variation.family("vary:feed-tiny@graph")


def test_a_quantizer_that_clips_the_int32_bias_is_found_on_the_small_feed_only(inproc_executor):
    base = vary_probe.judge(Setting(CASE), qdq_gemm(), "vary:feed-negative@graph", PLANTED, inproc_executor)
    assert base.status == "done" and not base.findings, base.findings
    out = vary_probe.judge(Setting(CASE), qdq_gemm(), FORM, PLANTED, inproc_executor)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings
    guarded = vary_probe.judge(Setting(CASE), qdq_gemm(), FORM, "ort-quant:quantize-static", inproc_executor)
    assert guarded.status == "done" and not guarded.findings, guarded.findings
