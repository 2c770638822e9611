"""Group neighbours (:mod:`passcheck.hunt.vary_group`): a Conv / ConvTranspose split into channel groups, its weight
sliced to the shape Operators.md then requires, its output channels kept. Judged with the onnx checker and
onnxruntime runs, and against a planted BatchNormalization fold that takes a grouped ConvTranspose weight's axis 0
for its output channels (``tests/hunt/planted_group.py``): no base has ``group`` > 1 (docs/recall.md R40)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_group, vary_probe
from passcheck.hunt.probe import Setting

sys.path.insert(0, str(Path(__file__).parent))
import planted_group as P  # noqa: E402 - the planted pass and base case, registered on import

FORM = "vary:group@ct=2"


def _run(model, feeds):
    """``model`` run by onnxruntime with every graph optimization off."""
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def _conv_add(w_shape, shared=False):
    """``y = Conv(x, W) + b`` (b ``[M, 1, 1]``), x ``float[1, C, 5, 5]``; ``shared``: a second Conv reads W."""
    m, c = w_shape[0], w_shape[1]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, 5, 5])
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, m, 3, 3])]
    w = np.arange(np.prod(w_shape), dtype=np.float32).reshape(w_shape) / 100
    inits = [numpy_helper.from_array(w, "W"), numpy_helper.from_array(np.ones((m, 1, 1), np.float32), "b")]
    nodes = [helper.make_node("Conv", ["x", "W"], ["c"], name="cv"), helper.make_node("Add", ["c", "b"], ["y"])]
    if shared:
        nodes.append(helper.make_node("Conv", ["x", "W"], ["z"], name="cv2"))
        outs.append(helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, m, 3, 3]))
    graph = helper.make_graph(nodes, "g", [x], outs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_sites_are_the_common_divisors_of_input_and_output_channels():
    assert list(vary_group.candidates(_conv_add((4, 6, 3, 3)))) == [("group", "cv=2")]
    assert list(vary_group.candidates(_conv_add((3, 2, 3, 3)))) == []  # gcd 1: no group divides both
    assert list(vary_group.candidates(P.base())) == [("group", "ct=2"), ("group", "ct=4")]
    forms = {f for f in variation.neighbours(P.base(), random.Random(0)) if variation.family(f) == "group"}
    assert forms == {FORM, "vary:group@ct=4"}, forms


def test_a_conv_neighbour_keeps_its_output_channels_and_runs():
    base = _conv_add((4, 6, 3, 3))
    out, labels = variation.build(base, "vary:group@cv=2")
    assert labels == ["cv"]
    w = numpy_helper.to_array(out.graph.initializer[0])
    assert out.graph.initializer[0].name == "W" and w.shape == (4, 3, 3, 3)  # [M, C/group, k, k]
    assert {a.name: a.i for a in out.graph.node[0].attribute} == {"group": 2}
    onnx.checker.check_model(out, full_check=True)
    x = np.random.default_rng(0).standard_normal((1, 6, 5, 5)).astype(np.float32)
    got = _run(out, {"x": x})[0]
    w0 = numpy_helper.to_array(base.graph.initializer[0])[:, :3]
    ref = np.zeros((1, 4, 3, 3), np.float32)
    for o in range(4):  # output channel o reads the input channels of its group (o // 2)
        xs = x[0, (o // 2) * 3 : (o // 2) * 3 + 3]
        for i in range(3):
            for j in range(3):
                ref[0, o, i, j] = (xs[:, i : i + 3, j : j + 3] * w0[o]).sum() + 1
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    assert numpy_helper.to_array(base.graph.initializer[0]).shape == (4, 6, 3, 3)  # the base is never modified


def test_a_weight_other_nodes_read_is_written_anew():
    out, _ = variation.build(_conv_add((4, 6, 3, 3), shared=True), "vary:group@cv=2")
    inits = {t.name: numpy_helper.to_array(t).shape for t in out.graph.initializer}
    assert inits["W"] == (4, 6, 3, 3) and inits["W__group2"] == (4, 3, 3, 3)
    assert out.graph.node[0].input[1] == "W__group2" and out.graph.node[2].input[1] == "W"
    onnx.checker.check_model(out, full_check=True)
    assert [r.shape for r in _run(out, {"x": np.ones((1, 6, 5, 5), np.float32)})] == [(1, 4, 3, 3)] * 2


def test_a_convtranspose_neighbour_passes_the_gate(inproc_executor):
    base = P.base()
    neighbour, _ = variation.build(base, FORM)
    w = next(t for t in neighbour.graph.initializer if t.name == "W")
    assert list(w.dims) == [4, 2, 3, 3]  # [C, M/group, k, k]
    assert _run(neighbour, {"x": np.ones((1, 4, 3, 3), np.float32)})[0].shape == (1, 4, 5, 5)
    setting = vary_probe.setting_for(Setting(P.CASE_ID), FORM, neighbour)
    assert vary_probe.invalid(setting, base, neighbour, inproc_executor, FORM) is None


def test_a_fold_that_takes_a_grouped_weights_axis_0_for_its_outputs_is_found_on_the_neighbour_only(inproc_executor):
    from passcheck.engine import Subject, evaluate

    base = P.base()
    cells = evaluate(
        Subject(id=P.CASE_ID, forms={"common": base}, bindings=[{}]), [P.PASS_ID], executor=inproc_executor
    )
    assert cells and not [f for c in cells for f in c.findings], cells  # group 1: the fold is right
    out = vary_probe.judge(Setting(P.CASE_ID), base, FORM, P.PASS_ID, inproc_executor)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings
