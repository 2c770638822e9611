"""The ``shape-empty`` neighbour (:mod:`passcheck.hunt.vary_empty`): a broadcast constant made zero-size where every
other operand holds a static 1 (Broadcasting.md: a 1 stretches to 0). Judged with the onnx checker, onnxruntime
runs and a planted elimination that takes a constant with no element for the identity of Add (as onnxruntime's
NoopElimination did before 1.26: docs/recall.md R115), which the numeric oracle must see on the neighbour only."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.hunt import variation, vary_empty, vary_probe
from passcheck.hunt.probe import Setting
from tests.hunt.conftest import judge_planted, run_unoptimized

CASE = "empty-test/add"
PLANTED = "planted:empty-operand-is-identity"


def _add(x_shape=(2, 1), c=0.5, op="Add"):
    """``y = Relu(op(x, c))``, x ``float[x_shape]`` fed, c an initializer."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, list(x_shape))
    nodes = [helper.make_node(op, ["x", "c"], ["t"], name="ad"), helper.make_node("Relu", ["t"], ["y"], name="rl")]
    graph = helper.make_graph(nodes, "g", [x], [y], [numpy_helper.from_array(np.asarray(c, np.float32), "c")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _conv_bias():
    """``y = Conv(x, W) + b``, x ``float[1, 2, 5, 5]`` (a batch of 1), b ``[4, 1, 1]``: the generated Conv rows."""
    rng = np.random.default_rng(1)
    inits = [
        numpy_helper.from_array(rng.uniform(-1, 1, (4, 2, 3, 3)).astype(np.float32), "W"),
        numpy_helper.from_array(rng.uniform(-1, 1, (4, 1, 1)).astype(np.float32), "b"),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5, 5])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 3, 3])
    nodes = [helper.make_node("Conv", ["x", "W"], ["p"], name="cv"), helper.make_node("Add", ["p", "b"], ["y"])]
    graph = helper.make_graph(nodes, "g", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def _empty_is_identity(model):
    """A planted elimination: an Add whose initializer operand has no element (or is 0) is removed, its other input
    read in its place."""
    g = model.graph
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    for n in list(g.node):
        const = [v for v in n.input if v in inits]
        if n.op_type == "Add" and len(const) == 1 and (inits[const[0]].size == 0 or not inits[const[0]].any()):
            other = next(v for v in n.input if v != const[0])
            for m in g.node:
                m.input[:] = [other if v == n.output[0] else v for v in m.input]
            g.node.remove(n)
    return model


register(Case(id=CASE, forms={"common": Form(_add), "uncommon": Form(_add, "the same model")}, doc="Add", opset=17))


def _sites(model):
    shapes = variation._inferred(model)
    return list(vary_empty.candidates(model, shapes, lambda n, i: variation._broadcasts(model, n, i, multi=True)))


def _run_all(model, feeds):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


def test_a_constant_beside_a_static_one_is_a_site_and_nowhere_else():
    assert _sites(_add()) == [("shape-empty", "c")]
    assert _sites(_add((2, 3))) == []  # no 1 to stretch: a 0 against 3 does not broadcast
    assert _sites(_add((1, 3), np.ones(3, np.float32))) == [("shape-empty", "c")]  # the batch of 1, axis -2
    assert _sites(_conv_bias()) == [("shape-empty", "b")]  # W is read by Conv, which does not broadcast
    assert _sites(_add(op="PRelu")) == []  # the slope broadcasts unidirectionally: it cannot stretch x's 1 to 0
    assert "vary:shape-empty@c" in variation.neighbours(_add(), random.Random(0))
    assert variation.family("vary:shape-empty@c") == "shape"
    assert variation.equivalent(_add(), "vary:shape-empty@c") is None


def test_the_constant_is_emptied_at_the_axis_and_the_outputs_lose_their_elements():
    for base, name, shape, out_shape in (
        (_add(), "c", [0], [2, 0]),
        (_add((1, 3), np.ones(3, np.float32)), "c", [0, 3], [0, 3]),
        (_conv_bias(), "b", [0, 4, 1, 1], [0, 4, 3, 3]),
    ):
        built, labels = variation.build(base, f"vary:shape-empty@{name}")
        assert labels == [name]
        onnx.checker.check_model(built, full_check=True)
        assert {t.name: list(t.dims) for t in built.graph.initializer}[name] == shape
        assert [d.dim_value for d in built.graph.output[0].type.tensor_type.shape.dim] == out_shape
        feeds = {"x": np.ones([d.dim_value for d in built.graph.input[0].type.tensor_type.shape.dim], np.float32)}
        got = run_unoptimized(built, feeds)[0]
        assert list(got.shape) == out_shape  # onnxruntime runs it: the annotations hold
        np.testing.assert_array_equal(_run_all(built, feeds), got)
        assert all(t.dims != [0] for t in base.graph.initializer if t.name == name)  # the base is never modified


def test_the_neighbour_passes_the_gate(inproc_executor):
    neighbour, _ = variation.build(_add(), "vary:shape-empty@c")
    setting = vary_probe.setting_for(Setting(CASE), "vary:shape-empty@c", neighbour)
    assert vary_probe.invalid(setting, _add(), neighbour, inproc_executor, "vary:shape-empty@c") is None


def test_an_elimination_that_takes_an_empty_operand_for_the_identity_is_found_on_the_neighbour_only(inproc_executor):
    same = judge_planted(CASE, _add(), "vary:value-nudge@c", PLANTED, _empty_is_identity, inproc_executor)
    assert same.status == "done" and not same.findings, same
    out = judge_planted(CASE, _add(), "vary:shape-empty@c", PLANTED, _empty_is_identity, inproc_executor)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings
