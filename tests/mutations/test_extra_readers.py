"""The rewrite ``extra-readers`` (:mod:`passcheck.mutations.extra_readers`): ``v → Max(v, Identity(v))`` gives the
producer of ``v`` a second reader and keeps every value; judged with the full checker, real onnxruntime runs and a
planted pass that takes another path when a node's output has several readers and there reads an optional input
without asking whether it exists (as onnxruntime 1.18.1's AttentionFusion read LayerNormalization's B,
docs/recall.md R53)."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.mutations.forms import enumerate_forms
from passcheck.mutations.registry import REWRITES
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:shared-output-reads-bias"


def _readers(model: onnx.ModelProto, value: str) -> int:
    return sum(1 for n in model.graph.node for x in n.input if x == value)


def _read_bias_when_shared(model: onnx.ModelProto) -> onnx.ModelProto:
    """For a LayerNormalization whose output has two or more readers, read its bias slot by position (a test
    pass: an omitted B raises IndexError, the pass crashes); else leave the model."""
    for n in model.graph.node:
        if n.op_type == "LayerNormalization" and _readers(model, n.output[0]) >= 2:
            _ = n.input[2]
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, _read_bias_when_shared, doc="test pass: bias read by position"))


def _layernorm(bias: bool) -> onnx.ModelProto:
    """``Y = LayerNormalization-17(X, Scale[, B])``, X ``float[2, 3, 8]``, Y the graph output (no node reads it)."""
    inits = [numpy_helper.from_array(np.linspace(0.5, 1.5, 8, dtype=np.float32), "Scale")]
    inputs = ["X", "Scale"]
    if bias:
        inits.append(numpy_helper.from_array(np.linspace(-0.5, 0.5, 8, dtype=np.float32), "B"))
        inputs.append("B")
    graph = helper.make_graph(
        [helper.make_node("LayerNormalization", inputs, ["Y"], axis=-1)],
        "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3, 8])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 3, 8])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _run(model: onnx.ModelProto, x: np.ndarray, level=ort.GraphOptimizationLevel.ORT_DISABLE_ALL) -> np.ndarray:
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, {"X": x})[0]


def test_the_producer_gains_a_reader_and_every_value_is_kept():
    base = _layernorm(bias=False)
    assert REWRITES["extra-readers"].sites(base) == ["Y"]  # graph outputs only
    rewritten, applied = REWRITES["extra-readers"].apply(base, ["Y"])
    assert applied.nodes == ("Y",)
    onnx.checker.check_model(rewritten, full_check=True)
    ln = next(n for n in rewritten.graph.node if n.op_type == "LayerNormalization")
    assert _readers(rewritten, ln.output[0]) == 2 and [o.name for o in rewritten.graph.output] == ["Y"]
    x = np.random.default_rng(0).standard_normal((2, 3, 8)).astype(np.float32)
    x[0, 0, 0] = np.nan  # Max of a NaN and its copy is NaN, as the value itself
    want = _run(base, x)
    for level in (ort.GraphOptimizationLevel.ORT_DISABLE_ALL, ort.GraphOptimizationLevel.ORT_ENABLE_ALL):
        got = _run(rewritten, x, level)
        assert np.array_equal(got, want, equal_nan=True) and got.dtype == want.dtype


def test_no_site_where_max_does_not_take_the_element_type():
    """Max-13 takes no bool or string: a bool output is no site (Operators.md Max-13 type constraint T)."""
    graph = helper.make_graph(
        [helper.make_node("Not", ["a"], ["b"])],
        "g",
        [helper.make_tensor_value_info("a", TensorProto.BOOL, [3])],
        [helper.make_tensor_value_info("b", TensorProto.BOOL, [3])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    assert REWRITES["extra-readers"].apply(model) is None


def test_the_hunt_offers_a_second_reader_of_the_generated_layernorm_output():
    from passcheck.cases import registry

    base = registry().get("generated/layernormalization-17.optional-input").forms["common"].build()
    assert len(base.graph.node[0].input) == 2  # the common form omits B
    for seed in range(3):
        forms = enumerate_forms(base, random.Random(seed))
        assert "extra-readers" in forms, (seed, forms)  # one site: the whole rewrite is the form at Y


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def test_a_pass_that_reads_an_omitted_input_on_the_shared_path_is_found_on_the_rewritten_form_only(ex):
    from passcheck.engine import Subject, evaluate

    base = _layernorm(bias=False)
    rewritten, _ = REWRITES["extra-readers"].apply(base, ["Y"])
    with_bias, _ = REWRITES["extra-readers"].apply(_layernorm(bias=True), ["Y"])
    forms = {"common": base, "extra-readers@Y": rewritten}
    cells = evaluate(Subject(id="extra-readers-test/ln", forms=forms, bindings=[{}]), [PASS_ID], executor=ex)
    found = {c.form: {f.oracle for f in c.findings} for c in cells if c.pass_id == PASS_ID}
    assert not found["common"], cells  # one reader (none: a graph output): the shared path is not taken
    assert "acceptance" in found["extra-readers@Y"], cells
    forms = {"common": _layernorm(bias=True), "extra-readers@Y": with_bias}
    cells = evaluate(Subject(id="extra-readers-test/ln-b", forms=forms, bindings=[{}]), [PASS_ID], executor=ex)
    assert not [f for c in cells if c.pass_id == PASS_ID for f in c.findings], cells  # B present: nothing wrong


OUTS = (("h", [4, 3]), ("a", [2, 3]), ("b", [2, 3]))


def test_the_producers_readers_keep_reading_it_and_a_shared_node_writing_two_outputs_gets_both():
    """``h = Relu(x)`` read by ``Neg`` and a graph output; ``Split`` writing two outputs: the Neg still reads the
    Relu directly (no node comes between them) and each Split output gets its own Max."""
    graph = helper.make_graph(
        [
            helper.make_node("Relu", ["x"], ["h"]),
            helper.make_node("Neg", ["h"], ["n"]),
            helper.make_node("Split", ["n"], ["a", "b"], axis=0, num_outputs=2),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 3])],
        [helper.make_tensor_value_info(v, TensorProto.FLOAT, s) for v, s in OUTS],
    )
    base = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    rewritten, applied = REWRITES["extra-readers"].apply(base)
    assert applied.nodes == ("h", "a", "b")
    onnx.checker.check_model(rewritten, full_check=True)
    made = {o: n for n in rewritten.graph.node for o in n.output}
    neg = next(n for n in rewritten.graph.node if n.op_type == "Neg")
    assert made[neg.input[0]].op_type == "Relu"
    assert [made[v].op_type for v in ("h", "a", "b")] == ["Max"] * 3
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    runs = [
        ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": x})
        for m in (base, rewritten)
    ]
    assert all(np.array_equal(p, q) for p, q in zip(*runs, strict=True))
