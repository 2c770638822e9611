"""QDQ neighbours (:mod:`passcheck.hunt.vary_qdq`): one float node made a QDQ node group, its third initializer input
int32 at the product of the first two scales or at a scale of its own. Judged with the onnx checker, onnxruntime runs
(onnxruntime's QDQ transformers fuse the group), and a planted fusion that takes every int32 bias at the product of
the other scales, as onnxruntime's Conv selector did before 1.30 (docs/recall.md R84) and its Gemm selector still
does (docs/found.md row 600): no base held a QDQ group outside the hand-written ``pattern-ort-qdq`` cases."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.hunt import compose, variation, vary_probe, vary_qdq
from passcheck.hunt.probe import Setting
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass
from tests.hunt.conftest import qdq_gemm

CASE = "qdq-test/gemm"
PLANTED = "planted:qdq-bias-product-scale"


def _gemm(opset=13):
    """``y = Gemm(a, B, C)``, a ``float[3, 4]``, B ``[4, 5]`` and C ``[5]`` initializers."""
    return qdq_gemm(opset)


def _conv():
    """``y = Conv(x, W, B)``, x ``float[1, 2, 5, 5]``, W ``[4, 2, 3, 3]`` and B ``[4]`` initializers."""
    rng = np.random.default_rng(1)
    inits = [
        numpy_helper.from_array(rng.uniform(-1, 1, (4, 2, 3, 3)).astype(np.float32), "W"),
        numpy_helper.from_array(rng.uniform(-2, 2, (4,)).astype(np.float32), "B"),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5, 5])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 3, 3])
    graph = helper.make_graph([helper.make_node("Conv", ["x", "W", "B"], ["y"], name="cv")], "g", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def _bias_at_product_scale(model):
    """A planted QDQ fusion's arithmetic: every DequantizeLinear of an int32 initializer read as the third input of a
    node whose first two inputs are DequantizeLinear outputs takes the product of their scales as its own."""
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    dq = {n.output[0]: n for n in g.node if n.op_type == "DequantizeLinear"}
    for n in g.node:
        if len(n.input) > 2 and all(v in dq for v in n.input[:3]) and inits[dq[n.input[2]].input[0]].data_type == 6:
            s0, s1 = (numpy_helper.to_array(inits[dq[v].input[1]]) for v in n.input[:2])
            name = dq[n.input[2]].input[1] + "__product"
            g.initializer.append(numpy_helper.from_array(np.asarray(s0 * s1, np.float32), name))
            dq[n.input[2]].input[1] = name
    return model


if PLANTED not in known_pass_ids():
    register_pass(FunctionAdapter(PLANTED, _bias_at_product_scale, doc="test pass: int32 bias at s0 * s1"))
register(Case(id=CASE, forms={"common": Form(_gemm), "uncommon": Form(_gemm, "the same model")}, doc="Gemm", opset=13))


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def _run(model, feeds, level=ort.GraphOptimizationLevel.ORT_DISABLE_ALL, path=None):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    if path:
        so.optimized_model_filepath = str(path)
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


def test_float_nodes_are_sites_and_a_bias_initializer_offers_its_own_scale():
    assert list(vary_qdq.candidates(_gemm(), variation._inferred(_gemm()))) == [
        ("qdq-wrap", "gm"),
        ("qdq-own-scale", "gm"),
        ("qdq-float-params", "gm"),
        ("qdq-requant", "gm"),
    ]
    assert list(vary_qdq.candidates(_gemm(11), variation._inferred(_gemm(11)))) == []  # before QuantizeLinear-13
    forms = {f for f in variation.neighbours(_conv(), random.Random(0)) if variation.family(f) == "qdq"}
    assert forms <= {"vary:qdq-wrap@cv", "vary:qdq-own-scale@cv", "vary:qdq-float-params@cv", "vary:qdq-requant@cv"}
    assert {"vary:qdq-wrap@cv", "vary:qdq-own-scale@cv", "vary:qdq-float-params@cv"} <= forms, forms


def test_the_group_computes_the_quantized_gemm_and_the_bias_scales_are_as_written():
    base = _gemm()
    out, labels = variation.build(base, "vary:qdq-wrap@gm")
    assert labels == ["gm"]
    onnx.checker.check_model(out, full_check=True)
    assert [n.op_type for n in out.graph.node] == [
        "QuantizeLinear",
        "DequantizeLinear",
        "DequantizeLinear",
        "DequantizeLinear",
        "Gemm",
        "QuantizeLinear",
        "DequantizeLinear",
    ]
    inits = {t.name: numpy_helper.to_array(t) for t in out.graph.initializer}
    assert "B" not in inits and "C" not in inits  # read by the node alone: now its quantized copies
    assert inits["gm__q1"].dtype == np.int8 and inits["gm__q2"].dtype == np.int32
    assert np.isclose(inits["gm__q2_s"], inits["gm__q0_s"] * inits["gm__q1_s"])
    a = np.random.default_rng(2).uniform(-2, 2, (3, 4)).astype(np.float32)
    ad = (np.clip(np.round(a * 32) + 128, 0, 255) - 128) / 32
    bd = inits["gm__q1"] * inits["gm__q1_s"]
    cd = inits["gm__q2"] * inits["gm__q2_s"]
    ref = (np.clip(np.round((ad @ bd + cd) * 16) + 128, 0, 255) - 128) / 16
    np.testing.assert_allclose(_run(out, {"a": a}), ref, atol=1 / 16 + 1e-6)  # one step where a product rounds apart
    own, _ = variation.build(base, "vary:qdq-own-scale@gm")
    onnx.checker.check_model(own, full_check=True)
    scale = {t.name: numpy_helper.to_array(t) for t in own.graph.initializer}["gm__q2_s"]
    assert np.isclose(scale, np.abs(numpy_helper.to_array(base.graph.initializer[1])).max() / 2**20)
    assert len(base.graph.node) == 1  # the base is never modified


def test_onnxruntime_fuses_the_group_and_computes_the_same(tmp_path):
    for base, site, fused in ((_gemm(), "gm", "QGemm"), (_conv(), "cv", "QLinearConv")):
        out, _ = variation.build(base, f"vary:qdq-wrap@{site}")
        feeds = {
            i.name: np.random.default_rng(3)
            .uniform(-2, 2, [d.dim_value for d in i.type.tensor_type.shape.dim])
            .astype(np.float32)
            for i in out.graph.input
        }
        path = tmp_path / f"{site}.onnx"
        got = _run(out, feeds, ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED, path)
        assert fused in {n.op_type for n in onnx.load(path).graph.node}
        np.testing.assert_array_equal(got, _run(out, feeds))


def test_the_neighbour_passes_the_gate(ex):
    for form in ("vary:qdq-wrap@gm", "vary:qdq-own-scale@gm"):
        neighbour, _ = variation.build(_gemm(), form)
        setting = vary_probe.setting_for(Setting(CASE), form, neighbour)
        assert vary_probe.invalid(setting, _gemm(), neighbour, ex, form) is None


def test_a_fusion_that_takes_the_bias_at_the_product_scale_is_found_on_the_own_scale_neighbour_only(ex):
    same = vary_probe.judge(Setting(CASE), _gemm(), "vary:qdq-wrap@gm", PLANTED, ex)
    assert same.status == "done" and not same.findings, same
    out = vary_probe.judge(Setting(CASE), _gemm(), "vary:qdq-own-scale@gm", PLANTED, ex)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings


def test_a_rewrite_at_the_grouped_node_carries_the_neighbour():
    base = _gemm()
    neighbour, _ = variation.build(base, "vary:qdq-wrap@gm")
    assert compose.quantized_groups(neighbour) == {"gm"} and compose.quantized_groups(base) == set()
    assert compose.grouped_by(base, neighbour) == {"gm", "y__f"}
    for seed in range(3):
        fresh, touched = compose.compositions(base, "vary:qdq-wrap@gm", random.Random(seed))
        assert "vary:qdq-wrap@gm>gemm-to-matmul-add@gm" in touched, (fresh, touched)


def test_a_node_already_half_in_a_group_is_completed_not_given_a_second_pair(tmp_path):
    from passcheck.cases import registry

    base = registry().get("pattern-ort-qdq/conv").forms["axis-explicit"].build()  # DQ inputs, a float bias
    out, _ = variation.build(base, "vary:qdq-wrap@n3_Conv")
    onnx.checker.check_model(out, full_check=True)
    assert len(out.graph.node) == len(base.graph.node) + 1  # the bias's DequantizeLinear only
    inits = {t.name: numpy_helper.to_array(t) for t in out.graph.initializer}
    np.testing.assert_allclose(inits["n3_Conv__q2_s"], inits["sx"] * inits["sw"], rtol=1e-6)  # per channel
    x = np.random.default_rng(0).uniform(-2, 2, (2, 2, 6, 6)).astype(np.float32)
    got = _run(out, {"x": x}, ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED, tmp_path / "o.onnx")
    assert "QLinearConv" in {n.op_type for n in onnx.load(tmp_path / "o.onnx").graph.node}
    np.testing.assert_array_equal(got, _run(out, {"x": x}))
