"""Frozen-input neighbours (:mod:`passcheck.hunt.vary_frozen`): every reader of a fed graph input reads an
initializer of its type and static shape, so a folding pass computes the nodes downstream at session creation.
Judged with real onnx checks and onnxruntime runs, and against a planted folding pass that drops the folded node's
attributes (``tests/hunt/planted_frozen.py``): the bases feed their inputs, so no base node reached a folding path
(onnxruntime's ConstantFolding crashed on a folded node with an optional output written ``""`` in 1.18–1.25,
docs/recall.md R29)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from passcheck.hunt import variation, vary_frozen, vary_probe
from passcheck.hunt.probe import Setting

sys.path.insert(0, str(Path(__file__).parent))
import planted_frozen as P  # noqa: E402 - the planted pass and base case, registered on import

FORM = "vary:input-constant@x"


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def _run(model, feeds):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)


def test_fed_static_float_inputs_are_sites_and_the_neighbour_reads_the_constant():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    n = helper.make_tensor_value_info("n", TensorProto.FLOAT, ["N", 3])
    i = helper.make_tensor_value_info("i", TensorProto.INT64, [2])
    w = helper.make_tensor_value_info("w", TensorProto.FLOAT, [3])  # an initializer's default: not fed
    nodes = [
        helper.make_node("Add", ["x", "w"], ["a"]),
        helper.make_node("Add", ["a", "n"], ["y"]),
        helper.make_node("Identity", ["i"], ["j"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [x, n, i, w],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("j", TensorProto.INT64, None),
        ],
        [onnx.numpy_helper.from_array(np.ones(3, np.float32), "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    assert vary_frozen.sites(model) == ["x", "i"]  # n has a dim_param, w is an initializer's default
    forms = {f for f in variation.neighbours(P.base(), random.Random(0)) if variation.family(f) == "input"}
    assert FORM in forms, forms
    out, labels = variation.build(P.base(), FORM)
    assert labels == ["x"] and [v.name for v in out.graph.input] == ["x"]  # the input stays, unread
    assert out.graph.node[0].input[0] == "x__const" and "x" not in {v for nd in out.graph.node for v in nd.input}
    onnx.checker.check_model(out, full_check=True)
    const = vary_frozen.values((2, 3), TensorProto.FLOAT)
    assert len(np.unique(const)) == 6 and not (const == 0).any()
    e = np.exp(const - const.max(axis=0))
    got = _run(out, {"x": np.zeros((2, 3), np.float32)})[0]
    np.testing.assert_allclose(got, e / e.sum(axis=0), rtol=1e-6)  # the base's computation on the constant
    assert P.base().graph.node[0].input[0] == "x"  # the base is never modified


def test_the_neighbour_passes_the_gate(ex):
    base = P.base()
    neighbour, _ = variation.build(base, FORM)
    setting = vary_probe.setting_for(Setting("frozen-test/softmax"), FORM, neighbour)
    assert vary_probe.invalid(setting, base, neighbour, ex, FORM) is None


def test_a_folding_pass_that_drops_attributes_is_found_on_the_frozen_neighbour_only(ex):
    from passcheck.engine import Subject, evaluate

    base = P.base()
    cells = evaluate(Subject(id="frozen-test/softmax", forms={"common": base}, bindings=[{}]), [P.PASS_ID], executor=ex)
    assert not [f for c in cells for f in c.findings], cells  # x is fed: nothing folds
    out = vary_probe.judge(Setting("frozen-test/softmax"), base, FORM, P.PASS_ID, ex)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings


def test_a_frozen_site_reaches_every_op_downstream_of_the_input():
    from passcheck.signature import site_ops

    labels = variation.site_labels(P.base(), FORM)
    assert site_ops([P.base()], labels) == {"Softmax", "Relu"}, labels


def _layernorm():
    """``Y = LayerNormalization(X, Scale)``, both fed (opset 17): a node folded only when both are known."""
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3])
    s = helper.make_tensor_value_info("Scale", TensorProto.FLOAT, [3])
    y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 3])
    node = helper.make_node("LayerNormalization", ["X", "Scale"], ["Y"], name="ln")
    return helper.make_model(helper.make_graph([node], "ln", [x, s], [y]), opset_imports=[helper.make_opsetid("", 17)])


def test_the_graph_site_freezes_every_input_and_onnxruntime_folds_the_node(tmp_path):
    base = _layernorm()
    assert list(vary_frozen.candidates(base)) == [("input-constant", s) for s in ("X", "Scale", "graph")]
    one, _ = variation.build(base, "vary:input-constant@X")
    every, _ = variation.build(base, "vary:input-constant@graph")
    assert list(one.graph.node[0].input) == ["X__const", "Scale"]
    assert list(every.graph.node[0].input) == ["X__const", "Scale__const"]
    assert [v.name for v in every.graph.input] == ["X", "Scale"]
    assert set(variation.site_labels(base, "vary:input-constant@graph")) == {"X", "Scale", "Y"}
    folded = []
    for i, model in enumerate((one, every)):
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        so.optimized_model_filepath = str(tmp_path / f"opt{i}.onnx")
        ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        folded.append([n.op_type for n in onnx.load(so.optimized_model_filepath).graph.node])
    assert folded == [["LayerNormalization"], []], folded  # ConstantFolding computes it once both are known


def _text_and_flags():
    """``y = Equal(s, t)``, ``c = Not(b)``, ``k = Identity(i)``: a string, a bool and an int64 input, each fed."""
    vi = helper.make_tensor_value_info
    nodes = [
        helper.make_node("Equal", ["s", "t"], ["y"]),
        helper.make_node("Not", ["b"], ["c"]),
        helper.make_node("Identity", ["i"], ["k"]),
    ]
    ins = [vi("s", TensorProto.STRING, [4]), vi("t", TensorProto.STRING, [4]), vi("b", TensorProto.BOOL, [3])]
    ins.append(vi("i", TensorProto.INT64, [2, 2]))
    outs = [vi("y", TensorProto.BOOL, [4]), vi("c", TensorProto.BOOL, [3]), vi("k", TensorProto.INT64, [2, 2])]
    return helper.make_model(helper.make_graph(nodes, "g", ins, outs), opset_imports=[helper.make_opsetid("", 19)])


def test_string_bool_and_integer_inputs_are_frozen_to_initializers_of_their_type():
    base = _text_and_flags()
    assert vary_frozen.sites(base) == ["s", "t", "b", "i"]
    every, _ = variation.build(base, "vary:input-constant@graph")
    onnx.checker.check_model(every, full_check=True)
    types = {t.name: t.data_type for t in every.graph.initializer}
    assert types == {"s__const": 8, "t__const": 8, "b__const": 9, "i__const": 7}, types
    feeds = {
        "s": np.array(["z"] * 4, dtype=object),
        "t": np.array(["z"] * 4, dtype=object),
        "b": np.zeros(3, bool),
        "i": np.zeros((2, 2), np.int64),
    }
    y, c, k = _run(every, feeds)  # the feeds are not read: the constants are
    assert y.tolist() == [True] * 4 and c.tolist() == [False, True, False] and k.tolist() == [[1, 2], [3, 0]]
    text = vary_frozen.values((4,), TensorProto.STRING)
    assert text.tolist() == ["a", "bc", "", "c"]  # one empty, one of two characters


def test_a_fold_that_writes_strings_at_a_fixed_width_is_found_on_the_frozen_string_input(ex):
    from passcheck.engine import Subject, evaluate

    base = P.text_base()
    subject = Subject(id="frozen-test/text", forms={"common": base}, bindings=[{}])
    cells = evaluate(subject, [P.TEXT_PASS_ID], executor=ex)
    assert not [f for c in cells for f in c.findings], cells  # x is fed: nothing folds
    neighbour = variation.build(base, FORM)[0]
    setting = vary_probe.setting_for(Setting("frozen-test/text"), FORM, neighbour)
    assert vary_probe.invalid(setting, base, neighbour, ex, FORM) is None
    out = vary_probe.judge(Setting("frozen-test/text"), base, FORM, P.TEXT_PASS_ID, ex)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings
