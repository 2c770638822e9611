"""Input neighbours (:mod:`passcheck.hunt.vary_inputs`): a graph input's declared shape given a leading 1, a
``dim_param`` stated as 0. Judged with real onnx checks and onnxruntime runs against a planted pass that writes a
Gemm for a MatMul without asking its first input's rank (``tests/hunt/planted_inputs.py``; onnxruntime 1.18's
MatMul + BatchNormalization fusion did this, docs/recall.md R14)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.hunt import variation, vary_probe
from passcheck.hunt.probe import Setting

sys.path.insert(0, str(Path(__file__).parent))
import planted_inputs as P  # noqa: E402 - the planted pass and base case, registered on import
from conftest import declared_dims as _dims  # noqa: E402


@pytest.fixture(scope="module")
def ex(inproc_executor):
    return inproc_executor


def test_each_fed_input_and_symbol_is_a_site_and_the_neighbours_state_what_they_feed():
    base = P.base()
    forms = {f for f in variation.neighbours(base, random.Random(0)) if variation.family(f) == "input"}
    # not w, shape; x's 8 is MatMul's contracted axis, declared 1 with w's rows (vary_axis_one, M248)
    assert forms == {"vary:input-rank-up@x", "vary:input-fix-zero@N", "vary:input-fix@N", "vary:input-axis-one@x=1"}
    up, labels = variation.build(base, "vary:input-rank-up@x")
    assert labels == ["x"] and _dims(up.graph.input[0]) == [1, "N", 8]
    assert _dims(up.graph.output[0])[1:] == [4]  # Reshape(-1, 4): inference no longer names the first dim
    onnx.checker.check_model(up, full_check=True)
    zero, labels = variation.build(base, "vary:input-fix-zero@N")
    assert labels == [] and _dims(zero.graph.input[0]) == [0, 8] and _dims(zero.graph.output[0]) == [0, 4]
    onnx.checker.check_model(zero, full_check=True)
    assert _dims(base.graph.input[0]) == ["N", 8]  # the base is never modified
    got = ort.InferenceSession(zero.SerializeToString(), providers=["CPUExecutionProvider"]).run(
        None, {"x": np.zeros((0, 8), np.float32)}
    )
    assert got[0].shape == (0, 4)


@pytest.mark.parametrize("form", ["vary:input-rank-up@x", "vary:input-fix-zero@N"])
def test_the_neighbours_pass_the_gate_and_are_fed_what_they_declare(form, ex):
    base = P.base()
    neighbour, _ = variation.build(base, form)
    setting = vary_probe.setting_for(Setting("input-test/matmul"), form, neighbour)
    assert vary_probe.invalid(setting, base, neighbour, ex, form) is None
    shapes = {a.shape for feeds in setting.feed_list(neighbour) for a in feeds.values()}
    assert shapes == ({(1, 2, 8), (1, 3, 8)} if "rank-up" in form else {(0, 8)}), shapes


def test_a_case_own_feeds_get_the_leading_axis_and_the_zero_binding():
    own = Setting("input-test/matmul", bindings=({"N": 2},), feeds=lambda b, s: {"x": np.ones((b["N"], 8), "f4")})
    up = vary_probe.setting_for(own, "vary:input-rank-up@x")
    assert up.feed_list(P.base())[0]["x"].shape == (1, 2, 8)
    zero = vary_probe.setting_for(own, "vary:input-fix-zero@N")
    assert zero.feed_list(P.base())[0]["x"].shape == (0, 8)


def test_a_pass_that_ignores_the_rank_is_found_on_the_rank_up_neighbour_only(ex):
    from passcheck.engine import Subject, evaluate

    base = P.base()
    cells = evaluate(Subject(id="input-test/matmul", forms={"common": base}, bindings=[{}]), [P.PASS_ID], executor=ex)
    assert not [f for c in cells for f in c.findings], cells  # rank 2: the Gemm is right
    out = vary_probe.judge(Setting("input-test/matmul"), base, "vary:input-rank-up@x", P.PASS_ID, ex)
    assert out.status == "done", out
    assert {f.oracle for f in out.findings} & {"validity", "acceptance", "runtime"}, out.findings
    zero = vary_probe.judge(Setting("input-test/matmul"), base, "vary:input-fix-zero@N", P.PASS_ID, ex)
    assert zero.status == "done" and not zero.findings, zero  # rank 2 again, an empty M: Gemm takes it


def test_a_rank_up_site_reaches_every_op_downstream_of_the_input():
    """The scheduler counts a neighbour as new per (op, kind, pass) of its site ops: a rank change shows wherever
    the extra dim goes, so a base meeting it with a Reshape is new after one meeting it with other ops only."""
    from passcheck.signature import site_ops

    base = P.base()
    labels = variation.site_labels(base, "vary:input-rank-up@x")
    assert labels[0] == "x" and {"m", "r", "y"} <= set(labels), labels
    assert site_ops([base], labels) == {"MatMul", "Reshape", "Relu"}
    assert site_ops([base], variation.labels("vary:input-rank-up@x")) == {"MatMul"}  # its readers alone


def _static_only_drops_relu(model):
    """A planted pass that acts only where its input's dims are all stated (as onnxslim's FusionGemm asks) and is
    wrong there: it removes the Relu."""
    if all(d.HasField("dim_value") for d in model.graph.input[0].type.tensor_type.shape.dim):
        for n in model.graph.node:
            if n.op_type == "Relu":
                n.op_type = "Identity"
    return model


def test_input_fix_states_the_first_binding_and_reaches_a_pass_that_acts_on_stated_dims_only(ex):
    from passcheck.engine import Subject, evaluate
    from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass, unregister_pass

    base = P.base()
    fixed, labels = variation.build(base, "vary:input-fix@N")
    assert labels == [] and _dims(fixed.graph.input[0]) == [2, 8] and _dims(fixed.graph.output[0]) == [2, 4]
    onnx.checker.check_model(fixed, full_check=True)
    assert {"m", "r", "y"} <= set(variation.site_labels(base, "vary:input-fix@N"))  # what the stated dim reaches
    setting = vary_probe.setting_for(Setting("input-test/matmul"), "vary:input-fix@N", fixed)
    assert vary_probe.invalid(setting, base, fixed, ex, "vary:input-fix@N") is None
    assert {a.shape for feeds in setting.feed_list(fixed) for a in feeds.values()} == {(2, 8)}
    pid = "planted:static-only"
    if pid not in known_pass_ids():
        register_pass(FunctionAdapter(pid, _static_only_drops_relu, doc="test pass: acts on stated dims only"))
    try:
        cells = evaluate(Subject(id="input-test/matmul", forms={"common": base}, bindings=[{}]), [pid], executor=ex)
        assert not [f for c in cells for f in c.findings], cells  # N named: the pass does nothing
        out = vary_probe.judge(Setting("input-test/matmul"), base, "vary:input-fix@N", pid, ex)
        assert out.status == "done" and {f.oracle for f in out.findings} == {"numeric"}, out
    finally:
        unregister_pass(pid)
