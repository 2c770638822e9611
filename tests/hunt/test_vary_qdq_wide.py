"""The 16-bit QDQ neighbour (:data:`passcheck.hunt.vary_qdq.WIDE_KIND`, M249): a float node made a QDQ group whose
activations are uint16 (QuantizeLinear-21 / DequantizeLinear-21), weights int8. Judged with the onnx checker, real
onnxruntime sessions (the group's values on the uint16 grid; every optimization level computes the same), and a
planted pass that reads a 16-bit group on the 8-bit grid: found on the 16-bit neighbour, not on the uint8 one."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, numpy_helper

from passcheck.hunt import variation, vary_probe, vary_qdq
from passcheck.hunt.probe import Setting
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass
from tests.hunt.conftest import qdq_gemm

CASE = "qdq-test/gemm"  # registered by tests/hunt/test_vary_qdq.py's module, imported below for it
PLANTED = "planted:qdq-16bit-read-as-8bit"
WIDE = "vary:qdq-16bit@gm"


def _as_8bit(model):
    """A planted QDQ pass's mistake: every uint16 zero point of 2^15 read as uint8 128, its scale times 256 (the
    8-bit grid over the same range)."""
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    for n in g.node:
        if n.op_type in ("QuantizeLinear", "DequantizeLinear") and len(n.input) > 2:
            z = inits.get(n.input[2])
            if z is not None and z.data_type == TensorProto.UINT16:
                z.CopyFrom(numpy_helper.from_array(np.array(128, np.uint8), z.name))
                s = inits[n.input[1]]
                s.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(s) * np.float32(256), s.name))
    return model


if PLANTED not in known_pass_ids():
    register_pass(FunctionAdapter(PLANTED, _as_8bit, doc="test pass: a 16-bit QDQ group read on the 8-bit grid"))


@pytest.fixture(scope="module")
def ex():
    import tests.hunt.test_vary_qdq  # noqa: F401  (registers CASE)
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def _run(model, feeds, level=ort.GraphOptimizationLevel.ORT_DISABLE_ALL):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


def test_the_16bit_kind_is_offered_from_opset_21_only():
    kinds = [k for k, _ in vary_qdq.candidates(qdq_gemm(21), variation._inferred(qdq_gemm(21)))]
    assert kinds == ["qdq-wrap", "qdq-own-scale", "qdq-16bit", "qdq-float-params", "qdq-requant"], kinds
    assert "qdq-16bit" not in {k for k, _ in vary_qdq.candidates(qdq_gemm(19), variation._inferred(qdq_gemm(19)))}
    low = qdq_gemm(19)
    assert not vary_qdq.build(low, "qdq-16bit", "gm", variation._inferred(low))  # QuantizeLinear-19: no uint16
    assert variation.family(WIDE) == "qdq"


def test_the_group_is_uint16_and_every_level_computes_the_quantized_gemm():
    out, labels = variation.build(qdq_gemm(21), WIDE)
    assert labels == ["gm"]
    onnx.checker.check_model(out, full_check=True)
    inits = {t.name: numpy_helper.to_array(t) for t in out.graph.initializer}
    assert inits["gm__q0_z"].dtype == np.uint16 and inits["gm__q0_z"] == 2**15
    assert inits["gm__o0_z"].dtype == np.uint16 and inits["gm__q1"].dtype == np.int8
    assert inits["gm__q0_s"] == np.float32(1 / 32 / 256) and inits["gm__o0_s"] == np.float32(1 / 16 / 256)
    assert inits["gm__q2"].dtype == np.int32 and np.isclose(inits["gm__q2_s"], inits["gm__q0_s"] * inits["gm__q1_s"])
    a = np.random.default_rng(2).uniform(-2, 2, (3, 4)).astype(np.float32)
    step_in, step_out = 1 / 8192, 1 / 4096
    ad = (np.clip(np.round(a / step_in) + 2**15, 0, 2**16 - 1) - 2**15) * step_in
    ref = ad @ (inits["gm__q1"] * inits["gm__q1_s"]) + inits["gm__q2"] * inits["gm__q2_s"]
    ref = (np.clip(np.round(ref / step_out) + 2**15, 0, 2**16 - 1) - 2**15) * step_out
    got = _run(out, {"a": a})
    np.testing.assert_allclose(got, ref, atol=step_out + 1e-6)  # one step where a product rounds apart
    assert np.abs(got - _run(variation.build(qdq_gemm(21), "vary:qdq-wrap@gm")[0], {"a": a})).max() > step_out
    np.testing.assert_array_equal(_run(out, {"a": a}, ort.GraphOptimizationLevel.ORT_ENABLE_BASIC), got)
    # ORT_ENABLE_EXTENDED and up fuse DQ(int8 B) + Gemm into com.microsoft MatMulNBits at its documented
    # accuracy level 4 (int8 activations, docs/found.md's expected rows): not compared here; a Conv is.


def test_a_16bit_conv_group_computes_the_same_at_every_level():
    from tests.hunt.test_vary_qdq import _conv

    base = _conv()
    base.opset_import[0].version = 21
    out, _ = variation.build(base, "vary:qdq-16bit@cv")
    onnx.checker.check_model(out, full_check=True)
    x = np.random.default_rng(3).uniform(-2, 2, (1, 2, 5, 5)).astype(np.float32)
    ref = _run(out, {"x": x})
    for level in (ort.GraphOptimizationLevel.ORT_ENABLE_BASIC, ort.GraphOptimizationLevel.ORT_ENABLE_ALL):
        np.testing.assert_array_equal(_run(out, {"x": x}, level), ref)


def test_a_pass_that_reads_the_16bit_group_on_the_8bit_grid_is_found_on_the_16bit_neighbour_only(ex):
    base = qdq_gemm(21)
    neighbour, _ = variation.build(base, WIDE)
    setting = vary_probe.setting_for(Setting(CASE), WIDE, neighbour)
    assert vary_probe.invalid(setting, base, neighbour, ex, WIDE) is None
    same = vary_probe.judge(Setting(CASE), base, "vary:qdq-wrap@gm", PLANTED, ex)
    assert same.status == "done" and not same.findings, same
    out = vary_probe.judge(Setting(CASE), base, WIDE, PLANTED, ex)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings
