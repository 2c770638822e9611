"""The QDQ group with its float parameters left float (:data:`passcheck.hunt.vary_qdq.FLOAT_KIND`, M282, round 16a):
checked with the onnx checker and real onnxruntime sessions (the unoptimized group computes the float Gemm on the
quantized input; onnxruntime's ``WeightBiasQuantization`` takes the form at ``ORT_ENABLE_BASIC``), and composed
with ``opset-stamp-below`` (M281): the neighbour moves to opset 10, QuantizeLinear's first version."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

from passcheck.hunt import variation, vary_qdq
from passcheck.mutations import REWRITES, verify_equivalent
from tests.hunt.conftest import qdq_gemm

FORM = "vary:qdq-float-params@gm"


def _session(model, level, saved=None):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    if saved:
        so.optimized_model_filepath = saved
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def test_offered_where_the_node_reads_an_initializer():
    m = qdq_gemm(13)
    assert "qdq-float-params" in {k for k, _ in vary_qdq.candidates(m, variation._inferred(m))}
    fed = qdq_gemm(13)
    fed.graph.input.extend(
        onnx.helper.make_tensor_value_info(t.name, t.data_type, t.dims) for t in fed.graph.initializer
    )
    assert "qdq-float-params" not in {k for k, _ in vary_qdq.candidates(fed, variation._inferred(fed))}
    assert variation.family(FORM) == "qdq"


def test_the_parameters_stay_float_and_the_group_computes_the_float_gemm_on_the_grid():
    base = qdq_gemm(13)
    out, labels = variation.build(base, FORM)
    assert labels == ["gm"]
    onnx.checker.check_model(out, full_check=True)
    gemm = next(n for n in out.graph.node if n.op_type == "Gemm")
    assert list(gemm.input[1:]) == ["B", "C"]  # the initializers themselves, not dequantized copies
    assert [n.op_type for n in out.graph.node] == [
        "QuantizeLinear",
        "DequantizeLinear",
        "Gemm",
        "QuantizeLinear",
        "DequantizeLinear",
    ]
    inits = {t.name: numpy_helper.to_array(t) for t in out.graph.initializer}
    a = np.random.default_rng(2).uniform(-2, 2, (3, 4)).astype(np.float32)
    ad = (np.clip(np.round(a * 32) + 128, 0, 255) - 128) / 32
    ref = ad @ inits["B"] + inits["C"]
    ref = (np.clip(np.round(ref * 16) + 128, 0, 255) - 128) / 16
    got = _session(out, ort.GraphOptimizationLevel.ORT_DISABLE_ALL).run(None, {"a": a})[0]
    assert np.abs(got - ref).max() <= 1 / 16 + 1e-6


def test_onnxruntime_quantizes_the_float_parameters_itself():
    out, _ = variation.build(qdq_gemm(13), FORM)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "basic.onnx")
        _session(out, ort.GraphOptimizationLevel.ORT_ENABLE_BASIC, path)
        saved = onnx.load(path)
    written = {t.name: t.data_type for t in saved.graph.initializer}
    gemm = next(n for n in saved.graph.node if n.op_type == "Gemm")
    producers = {o: n for n in saved.graph.node for o in n.output}
    assert producers[gemm.input[1]].op_type == "DequantizeLinear"  # WeightBiasQuantization's weight pair
    assert producers[gemm.input[2]].op_type == "DequantizeLinear"  # and its int32 bias
    assert onnx.TensorProto.INT8 in written.values()


def test_composed_with_the_stamp_below_it_reaches_opset_10():
    out, _ = variation.build(qdq_gemm(13), FORM)
    lower, _ = REWRITES["opset-stamp-below"].apply(out)
    assert lower.opset_import[0].version == 10
    a = np.random.default_rng(3).uniform(-2, 2, (3, 4)).astype(np.float32)
    verify_equivalent(out, lower, [{"a": a}], "opset-stamp-below")


def test_a_neighbour_that_adds_op_types_touches_the_stamp():
    """M283: the stamp rewrites' site is the model's opset_import; a neighbour adding QuantizeLinear /
    DequantizeLinear moves where ``opset-stamp-below`` goes (Gemm alone: 7; in the group: 10), so the composed
    form is offered, and it builds to opset 10."""
    from passcheck.hunt import compose

    base = qdq_gemm(13)
    assert REWRITES["opset-stamp-below"].apply(base)[0].opset_import[0].version == 7
    fresh, touched = compose.compositions(base, FORM, __import__("random").Random(0), only={"opset-stamp-below"})
    assert f"{FORM}>opset-stamp-below@opset_import" in fresh + touched, (fresh, touched)
    neighbour, composed, _ = compose.build(base, f"{FORM}>opset-stamp-below@opset_import")
    assert composed.opset_import[0].version == 10
