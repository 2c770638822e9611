"""The rewrite ``transpose-identity`` (:mod:`passcheck.mutations.transpose_identity`): an identity-``perm`` Transpose
on one value, offered on every base that has the value, judged with real onnx checks and onnxruntime runs against a
planted pass that folds a Transpose into Gemm's ``transA`` without reading its ``perm`` (onnxruntime's
GemmTransposeFusion did this up to 1.28.0, docs/recall.md R19)."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases._registry import load_builtin
from passcheck.mutations.forms import enumerate_forms
from passcheck.mutations.registry import REWRITES
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:transpose-into-gemm"


def _fold_transpose_into_gemm(model: onnx.ModelProto) -> onnx.ModelProto:
    """Gemm(Transpose(a), …) → Gemm(a, …, transA flipped), whatever the Transpose's perm (test pass)."""
    made = {o: n for n in model.graph.node for o in n.output}
    for n in model.graph.node:
        t = made.get(n.input[0]) if n.op_type == "Gemm" else None
        if t is None or t.op_type != "Transpose":
            continue
        n.input[0] = t.input[0]
        trans = next((a for a in n.attribute if a.name == "transA"), None)
        if trans is None:
            n.attribute.append(helper.make_attribute("transA", 1))
        else:
            trans.i = 1 - trans.i
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, _fold_transpose_into_gemm, doc="test pass: perm unread"))


def _gemm() -> onnx.ModelProto:
    """``y = Gemm(x, w)``, x ``[4, 4]`` (square: the unread perm gives wrong values, not a refused shape)."""
    w = numpy_helper.from_array(np.linspace(-1, 1, 16, dtype=np.float32).reshape(4, 4), "w")
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "w"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 4])],
        [w],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


def test_each_value_is_a_site_and_the_transpose_keeps_every_value():
    base = load_builtin().get("fusion-matmul/matmul-add-r2").forms["common"].build()
    got = REWRITES["transpose-identity"].apply(base, ["x"])
    assert got is not None
    rewritten, applied = got
    t = next(n for n in rewritten.graph.node if n.op_type == "Transpose")
    assert list(t.input) == ["x"] and list(t.attribute[0].ints) == [0, 1]
    onnx.checker.check_model(rewritten, full_check=True)
    x = np.arange(16, dtype=np.float32).reshape(2, 8) / 7
    assert np.array_equal(_run(rewritten, x), _run(base, x))


def test_the_hunt_offers_the_transpose_before_the_matmul_on_every_seed():
    base = load_builtin().get("fusion-matmul/matmul-add-r2").forms["common"].build()
    for seed in range(5):
        forms = enumerate_forms(base, random.Random(f"{seed}:fusion-matmul/matmul-add-r2:common"))
        assert "transpose-identity" in forms and "transpose-identity@x" in forms, (seed, forms)


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def test_a_pass_that_ignores_the_perm_is_found_on_the_rewritten_form_only(ex):
    from passcheck.engine import Subject, evaluate

    base = _gemm()
    rewritten, _ = REWRITES["transpose-identity"].apply(base, ["x"])
    forms = {"common": base, "transpose-identity@x": rewritten}
    subject = Subject(id="transpose-test/gemm", forms=forms, bindings=[{}])
    cells = evaluate(subject, [PASS_ID], executor=ex)
    found = {c.form: {f.oracle for f in c.findings} for c in cells if c.pass_id == PASS_ID}
    assert not found["common"], cells  # no Transpose: nothing folded
    assert "numeric" in found["transpose-identity@x"] or "parity" in found["transpose-identity@x"], cells
