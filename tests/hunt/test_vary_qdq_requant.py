"""The QDQ group with its run-time inputs requantized (:data:`passcheck.hunt.vary_qdq.REQUANT_KIND`, M401, round 19f):
two Q/DQ pairs at two scales before the node, the chain onnxruntime's ``DoubleQDQPairsRemover`` collapses by
recomputing the outer pair's scale and zero point (``double_qdq_pairs_remover.cc``: "each pair is allowed to have
different scales and zero-points"). Checked with the onnx checker, real onnxruntime sessions (unoptimized: both
roundings; ``ORT_ENABLE_ALL``: the chain collapsed, the pool fused, within one output step), the gate, and a
planted remover that drops the inner DQ -> Q as if both pairs were alike (found on this neighbour, not on
``qdq-wrap``, which has one pair)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.hunt import variation, vary_probe, vary_qdq
from passcheck.hunt.probe import Setting
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass
from tests.hunt.conftest import qdq_gemm, run_unoptimized

CASE = "qdq-test/average-pool"
PLANTED = "planted:double-qdq-scale-kept"
FORM = "vary:qdq-requant@ap"


def _pool():
    """``y = AveragePool(x, kernel_shape=[2, 2])``, x ``float[1, 2, 4, 4]``, opset 13."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 3, 3])
    node = helper.make_node("AveragePool", ["x"], ["y"], name="ap", kernel_shape=[2, 2])
    graph = helper.make_graph([node], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def _drop_inner_pair(model):
    """A planted remover: ``Q1 -> DQ1 -> Q2 -> DQ2`` becomes ``Q1 -> DQ2``, DQ2 keeping its own scale and zero point
    (the pairs taken as alike: what the remover's source says they need not be)."""
    g = model.graph
    made = {o: n for n in g.node for o in n.output}
    drop = set()
    for dq2 in g.node:
        q2 = made.get(dq2.input[0]) if dq2.op_type == "DequantizeLinear" else None
        dq1 = made.get(q2.input[0]) if q2 is not None and q2.op_type == "QuantizeLinear" else None
        q1 = made.get(dq1.input[0]) if dq1 is not None and dq1.op_type == "DequantizeLinear" else None
        if q1 is not None and q1.op_type == "QuantizeLinear":
            dq2.input[0] = q1.output[0]
            drop |= {id(q2), id(dq1)}
    kept = [n for n in g.node if id(n) not in drop]
    del g.node[:]
    g.node.extend(kept)
    return model


if PLANTED not in known_pass_ids():
    register_pass(FunctionAdapter(PLANTED, _drop_inner_pair, doc="test pass: a double Q/DQ pair dropped as alike"))
register(Case(id=CASE, forms={"common": Form(_pool), "uncommon": Form(_pool, "the same model")}, doc="pool", opset=13))


def _optimized(model, feeds, path):
    """``model`` run at ``ORT_ENABLE_ALL``, the optimized model saved at ``path``."""
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.optimized_model_filepath = str(path)
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


def _grid(v, scale):
    return (np.clip(np.round(v / scale) + 128, 0, 255) - 128) * scale


def test_offered_where_a_run_time_input_has_no_pair_yet():
    m = _pool()
    assert ("qdq-requant", "ap") in set(vary_qdq.candidates(m, variation._inferred(m)))
    assert ("qdq-requant", "gm") in set(vary_qdq.candidates(qdq_gemm(13), variation._inferred(qdq_gemm(13))))
    wrapped, _ = variation.build(_pool(), "vary:qdq-wrap@ap")  # its input already dequantized: nothing to requantize
    assert not vary_qdq._reads_runtime(wrapped, "ap")
    assert variation.family(FORM) == "qdq"


def test_two_pairs_at_two_scales_and_both_roundings_computed(tmp_path):
    out, labels = variation.build(_pool(), FORM)
    assert labels == ["ap"]
    onnx.checker.check_model(out, full_check=True)
    ops = [n.op_type for n in out.graph.node]
    assert ops == ["QuantizeLinear", "DequantizeLinear"] * 2 + ["AveragePool", "QuantizeLinear", "DequantizeLinear"]
    scales = [
        float(numpy_helper.to_array(next(t for t in out.graph.initializer if t.name == n.input[1])))
        for n in out.graph.node
        if n.op_type == "QuantizeLinear"
    ]
    assert scales == [vary_qdq.IN_SCALE, vary_qdq.REQUANT_SCALE, vary_qdq.OUT_SCALE]
    x = np.random.default_rng(4).uniform(-5, 5, (1, 2, 4, 4)).astype(np.float32)
    xr = _grid(_grid(x, vary_qdq.IN_SCALE), vary_qdq.REQUANT_SCALE)
    pooled = (xr[..., :-1, :-1] + xr[..., 1:, :-1] + xr[..., :-1, 1:] + xr[..., 1:, 1:]) / 4
    got = run_unoptimized(out, {"x": x})[0]
    assert np.abs(got - _grid(pooled, vary_qdq.OUT_SCALE)).max() <= 1e-6
    # onnxruntime collapses the chain (DoubleQDQPairsRemover) and fuses the pool; one output step apart at most
    path = tmp_path / "all.onnx"
    fused = _optimized(out, {"x": x}, path)
    saved = [n.op_type for n in onnx.load(str(path)).graph.node]
    assert saved.count("QuantizeLinear") < 3, saved
    assert np.abs(fused - got).max() <= vary_qdq.OUT_SCALE + 1e-6


def test_the_neighbour_passes_the_gate(inproc_executor):
    neighbour, _ = variation.build(_pool(), FORM)
    setting = vary_probe.setting_for(Setting(CASE), FORM, neighbour)
    assert vary_probe.invalid(setting, _pool(), neighbour, inproc_executor, FORM) is None


def test_a_remover_that_takes_the_pairs_as_alike_is_found_on_the_requantized_group_only(inproc_executor):
    same = vary_probe.judge(Setting(CASE), _pool(), "vary:qdq-wrap@ap", PLANTED, inproc_executor)
    assert same.status == "done" and not same.findings, same
    out = vary_probe.judge(Setting(CASE), _pool(), FORM, PLANTED, inproc_executor)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings
