"""The numeric oracle forgives a difference within the model's own float32 rounding, judged in float64 (M194).

A 1×1 Conv over 18 channels whose terms are ~1e37 and cancel to a residue far below them: a pass that sums the
channels in another order (two Convs over halves, then Add: exact in the reals) differs from the unoptimized run
beyond rtol=1e-4 of the result, and is within ``n · u · Σ|t|`` (IEEE 754 binary32). A pass that changes one weight
by 2^-10 at the same magnitudes is a wrong result. Real onnxruntime sessions, onnx's reference evaluator."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.api import check_model
from passcheck.oracles import numeric, rounding
from passcheck.testing import as_adapter, registered

C, HW = 18, 4


def weights() -> np.ndarray:
    return np.random.default_rng(7).uniform(0.5, 2.0, (1, C, 1, 1)).astype(np.float32)


def conv() -> onnx.ModelProto:
    """y = Conv(x, w): float32[1, 18, 4, 4] → float32[1, 1, 4, 4]."""
    info = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, HW, HW])]
    info.append(helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, HW, HW]))
    nodes, inits = [helper.make_node("Conv", ["x", "w"], ["y"])], [numpy_helper.from_array(weights(), "w")]
    graph = helper.make_graph(nodes, "conv", info[:1], info[1:], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def cancelling() -> np.ndarray:
    """Terms x·w of ±1e37 whose last channel cancels the others' sum (in float64) at every pixel."""
    rng, w = np.random.default_rng(3), weights().astype(np.float64).reshape(C, 1, 1)
    t = rng.uniform(-1, 1, (C, HW, HW)) * 1e37
    t[-1] = -t[:-1].sum(axis=0) + rng.uniform(-1, 1, (HW, HW)) * 1e33
    return (t / w).astype(np.float32)[None]


def split_sum(model: onnx.ModelProto, nudge: float = 1.0) -> onnx.ModelProto:
    """The Conv's channels summed in two halves then added (exact in the reals); ``nudge`` scales weight 0 (a
    wrong pass when not 1)."""
    w = weights()
    w[0, 0] *= nudge
    h = C // 2
    inits = [numpy_helper.from_array(w[:, :h], "w0"), numpy_helper.from_array(w[:, h:], "w1")]
    inits.append(numpy_helper.from_array(np.array([h, C - h], np.int64), "halves"))
    nodes = [
        helper.make_node("Split", ["x", "halves"], ["x0", "x1"], axis=1),
        helper.make_node("Conv", ["x0", "w0"], ["y0"]),
        helper.make_node("Conv", ["x1", "w1"], ["y1"]),
        helper.make_node("Add", ["y0", "y1"], ["y"]),
    ]
    out = onnx.ModelProto()
    out.CopyFrom(model)
    out.graph.ClearField("node")
    out.graph.ClearField("initializer")
    out.graph.node.extend(nodes)
    out.graph.initializer.extend(inits)
    return out


def wrong(model: onnx.ModelProto) -> onnx.ModelProto:
    return split_sum(model, nudge=1 + 2.0**-10)


def cell_of(pass_, x):
    with registered(as_adapter(pass_)) as pid:
        report = check_model(conv(), [pid], feeds=[{"x": x}], name="numeric/rounding", isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == pid]
    return cell


def test_a_reordered_cancelling_sum_is_within_the_models_rounding_and_not_reported():
    import onnxruntime as ort

    x = cancelling()
    runs = [
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
        for m in (conv(), split_sum(conv()))
    ]
    assert not numeric.compare(runs[1], runs[0]).ok  # the tolerance alone blames the reordering
    cell = cell_of(split_sum, x)
    assert not [f.message for f in cell.findings if f.oracle == "numeric"], cell.findings
    (why,) = cell.coverage["within_rounding"].values()
    assert "within the model's own float32 rounding (checked in float64)" in why, why
    assert cell.verdict != "unchecked"  # checked: compared with float64 values, not skipped


def test_a_wrong_weight_at_the_same_magnitudes_is_reported_with_the_float64_figures():
    cell = cell_of(wrong, cancelling())
    (f,) = [f for f in cell.findings if f.oracle == "numeric"]
    assert "beyond the model's own rounding" in f.message and "float64 value" in f.message, f.message
    assert "within_rounding" not in cell.coverage


def test_a_model_the_reference_evaluator_cannot_run_in_float64_keeps_the_tolerances_verdict():
    model = conv()
    model.graph.node[0].domain = "com.example"  # no reference implementation
    model.opset_import.append(helper.make_opsetid("com.example", 1))
    exact, draws, why = rounding.float64_runs(model, {"x": cancelling()})
    assert not exact and not draws and "cannot run it in float64" in why, why
    judged = rounding.judge((exact, draws, why), "y", np.zeros(1, np.float32), np.ones(1, np.float32), 1e-4, 1e-5)
    assert judged.within is None and judged.detail == why


def test_widened_computes_in_float64():
    wide = rounding.widened(conv())
    assert wide.graph.initializer[0].data_type == TensorProto.DOUBLE
    assert {v.type.tensor_type.elem_type for v in (*wide.graph.input, *wide.graph.output)} == {TensorProto.DOUBLE}


def test_positions_the_inputs_overflow_spared_are_left_out_and_the_rest_judged():
    """The round-12f shape: one position overflowed in the unoptimized run (spared by the overflow judge), another
    differs by a reordering's rounding. Without the mask the judge declines (a non-finite value); with it, the rest is
    within the rounding the perturbed float64 runs show, and a difference 1000 times that is not."""
    x = np.array([1e38 * 4, -7.2473e34])  # float64: the first is beyond float32's range
    e = np.array([np.inf, -7.2472e34], np.float32)
    draws = [{"y": x + [0.0, d]} for d in (1e31, -1e31, 5e30, 0.0)]
    runs, spared = ({"y": x}, draws, ""), ~np.isfinite(e)
    near, far = np.array([3e38, -7.2481e34], np.float32), np.array([3e38, -7.2473e34 + 1e34], np.float32)
    assert rounding.judge(runs, "y", near, e, 1e-4, 1e-5).within is None
    assert rounding.judge(runs, "y", near, e, 1e-4, 1e-5, spared).within is True
    assert rounding.judge(runs, "y", far, e, 1e-4, 1e-5, spared).within is False


def test_a_model_beyond_the_node_cap_is_not_evaluated_and_keeps_the_tolerances_verdict():
    """A failed comparison costs 1 + DRAWS reference runs; a model over MAX_NODES main-graph nodes is not run."""
    model = conv()
    relus = [helper.make_node("Relu", [f"r{i}"], [f"r{i + 1}"]) for i in range(rounding.MAX_NODES)]
    model.graph.node[0].output[0] = "r0"
    relus[-1].output[0] = "y"
    model.graph.node.extend(relus)
    exact, draws, why = rounding.float64_runs(model, {"x": cancelling()})
    assert not exact and not draws and f"more than {rounding.MAX_NODES}" in why, why
    del model.graph.node[1:3]
    model.graph.node[1].input[0] = "r0"
    exact, _, why = rounding.float64_runs(model, {"x": cancelling()})
    assert not why and exact["y"].dtype == np.float64, why
