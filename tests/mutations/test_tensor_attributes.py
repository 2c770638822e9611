"""The rewrite ``list-attributes-as-tensor`` (:mod:`passcheck.mutations.tensor_attributes`) and the generated
LabelEncoder variant ``string-values`` (passcheck/generate/domains.json): schema-read tensor siblings, the
equivalence of both spellings under the full checker and onnxruntime, and a planted pass that hashes tensor
attributes without string support (onnxruntime 1.25.1's common subexpression elimination did, docs/recall.md
R41) found on the rewritten form of the string base only."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from passcheck.cases._registry import load_builtin
from passcheck.mutations.forms import enumerate_forms
from passcheck.mutations.registry import REWRITES
from passcheck.mutations.tensor_attributes import tensor_siblings
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

RID = "list-attributes-as-tensor"
STRING_BASE = "generated/ml.labelencoder-4.shape.string-values"
PASS_ID = "planted:hash-tensor-attributes"


def _hash_tensor_attributes(model: onnx.ModelProto) -> onnx.ModelProto:
    """Hash every one-element tensor attribute of every node; string tensors are not expected (test pass)."""
    for n in model.graph.node:
        for a in n.attribute:
            one_string = a.t.data_type == TensorProto.STRING and len(a.t.string_data) == 1
            if a.type == onnx.AttributeProto.TENSOR and one_string:
                raise RuntimeError("unexpected string tensor attribute")
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, _hash_tensor_attributes, doc="test pass: no string tensor hash"))


def _run(model: onnx.ModelProto, feeds: dict) -> list:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def _string_base() -> onnx.ModelProto:
    return load_builtin().get(STRING_BASE).forms["common"].build()


def test_the_siblings_are_read_off_the_schemas():
    le = dict(tensor_siblings("LabelEncoder", "ai.onnx.ml", 4))
    assert le["keys_tensor"] == ("keys_floats", "keys_int64s", "keys_strings")
    assert le["default_tensor"] == ("default_float", "default_int64", "default_string")
    assert "values_tensor" in le
    assert tensor_siblings("LabelEncoder", "ai.onnx.ml", 2) == ()  # no tensor attributes before version 4
    tree = dict(tensor_siblings("TreeEnsembleRegressor", "ai.onnx.ml", 3))
    assert tree["nodes_values_as_tensor"] == ("nodes_values",)
    assert tensor_siblings("Add", "", 14) == () and tensor_siblings("NoSuchOp", "", 14) == ()


def test_string_values_base_rewritten_keeps_every_value():
    base = _string_base()
    le = base.graph.node[0]
    assert {a.name for a in le.attribute} == {"keys_int64s", "values_strings", "default_string"}
    rewritten, applied = REWRITES[RID].apply(base)
    attrs = {a.name: a for a in rewritten.graph.node[0].attribute}
    assert set(attrs) == {"keys_tensor", "values_tensor", "default_tensor"}
    assert attrs["default_tensor"].t.data_type == TensorProto.STRING and list(attrs["default_tensor"].t.dims) == [1]
    assert attrs["keys_tensor"].t.data_type == TensorProto.INT64 and list(attrs["keys_tensor"].t.dims) == [3]
    onnx.checker.check_model(rewritten, full_check=True)
    x = np.array([[0, 1, 2], [3, 0, 1]], dtype=np.int64)
    got, want = _run(rewritten, {"X": x})[0], _run(base, {"X": x})[0]
    assert got.tolist() == want.tolist() == [["a", "b", "c"], ["_Unused", "a", "b"]]


def test_a_default_of_another_type_than_the_values_stays():
    node = helper.make_node(
        "LabelEncoder", ["x"], ["y"], domain="ai.onnx.ml", keys_int64s=[0, 1], values_int64s=[5, 6], default_string="z"
    )
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.INT64, [3])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [3])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("ai.onnx.ml", 4)])
    rewritten, _ = REWRITES[RID].apply(model)
    assert {a.name for a in rewritten.graph.node[0].attribute} == {"keys_tensor", "values_tensor", "default_string"}
    x = np.array([0, 1, 4], dtype=np.int64)
    assert _run(rewritten, {"x": x})[0].tolist() == _run(model, {"x": x})[0].tolist() == [5, 6, -1]


def test_tree_ensemble_lists_as_tensors_run_the_same():
    attrs = dict(
        nodes_treeids=[0, 0, 0],
        nodes_nodeids=[0, 1, 2],
        nodes_featureids=[0, 0, 0],
        nodes_values=[0.5, 0.0, 0.0],
        nodes_modes=["BRANCH_LEQ", "LEAF", "LEAF"],
        nodes_truenodeids=[1, 0, 0],
        nodes_falsenodeids=[2, 0, 0],
        target_treeids=[0, 0],
        target_nodeids=[1, 2],
        target_ids=[0, 0],
        target_weights=[1.0, 2.0],
        n_targets=1,
    )
    graph = helper.make_graph(
        [helper.make_node("TreeEnsembleRegressor", ["x"], ["y"], domain="ai.onnx.ml", **attrs)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 1])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("ai.onnx.ml", 3)])
    rewritten, _ = REWRITES[RID].apply(model)
    names = {a.name for a in rewritten.graph.node[0].attribute}
    assert {"nodes_values_as_tensor", "target_weights_as_tensor"} <= names and "nodes_values" not in names
    onnx.checker.check_model(rewritten, full_check=True)
    x = np.array([[0, 1], [1, 0], [0.5, 2]], dtype=np.float32)
    assert np.array_equal(_run(rewritten, {"x": x})[0], _run(model, {"x": x})[0])


def test_the_hunt_offers_the_rewrite_on_the_string_base():
    base = _string_base()
    for seed in range(3):
        forms = enumerate_forms(base, random.Random(f"{seed}:{STRING_BASE}:common"))
        assert any(f.split("@")[0] == RID for f in forms), (seed, forms)


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def test_a_pass_without_string_tensor_hashing_is_found_on_the_rewritten_form_only(ex):
    from passcheck.engine import Subject, evaluate

    base = _string_base()
    rewritten, _ = REWRITES[RID].apply(base)
    subject = Subject(id="tensor-attrs-test/label-encoder", forms={"common": base, RID: rewritten}, bindings=[{}])
    cells = evaluate(subject, [PASS_ID], executor=ex)
    found = {c.form: [f.oracle for f in c.findings] for c in cells if c.pass_id == PASS_ID}
    assert not found["common"], cells
    assert found[RID], cells
