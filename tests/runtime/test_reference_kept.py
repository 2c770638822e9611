"""The reference runner keeps its last runs by computation and feeds: a model that differs from one it ran
only in what cannot change a value (value_info, doc strings, producer, metadata) is not evaluated again on the
same feeds; another computation, other feeds or another evaluator are."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.runtime import reference
from passcheck.runtime.reference import run_reference


def _model(bias: float = 1.0) -> onnx.ModelProto:
    """y = If(c, then: relu(x) + bias, else: -x): the branch values are what the runner is for."""
    then = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Add", ["r", "b"], ["t"])],
        "then",
        [],
        [helper.make_tensor_value_info("t", TensorProto.FLOAT, [2])],
    )
    other = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["e"])],
        "else",
        [],
        [helper.make_tensor_value_info("e", TensorProto.FLOAT, [2])],
    )
    g = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other, name="if")],
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        initializer=[onnx.numpy_helper.from_array(np.array([bias, bias], np.float32), "b")],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def _feeds(x=(-1.0, 2.0)):
    return {"x": np.array(x, np.float32), "c": np.array(True)}


@pytest.fixture
def counted(monkeypatch):
    """How many times the evaluator really ran (the kept runs emptied first)."""
    monkeypatch.setattr(reference, "_RUNS", type(reference._RUNS)())
    calls = []
    real = reference._evaluated
    monkeypatch.setattr(reference, "_evaluated", lambda *a: calls.append(1) or real(*a))
    return calls


def _annotated(m: onnx.ModelProto) -> onnx.ModelProto:
    """``m`` as a shape-inference pass writes it: value_info in the branch, a producer, a doc string."""
    out = onnx.ModelProto()
    out.CopyFrom(m)
    out.producer_name, out.doc_string = "a pass", "annotated"
    branch = out.graph.node[0].attribute[0].g
    branch.value_info.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, [2]))
    out.graph.value_info.append(helper.make_tensor_value_info("y", TensorProto.FLOAT, [2]))
    return out


def test_a_model_that_adds_only_annotations_is_not_evaluated_again(counted):
    first = run_reference(_model(), _feeds())
    again = run_reference(_annotated(_model()), _feeds())
    assert len(counted) == 1
    assert {k: np.asarray(v).tolist() for k, v in again.observed.items()} == {
        k: np.asarray(v).tolist() for k, v in first.observed.items()
    }
    assert [k for k in first.observed if k.endswith("::r")], first.observed  # a branch value was observed


@pytest.mark.parametrize(
    "other",
    [lambda: (_model(bias=2.0), _feeds()), lambda: (_model(), _feeds((3.0, 2.0)))],
    ids=["another-initializer", "other-feeds"],
)
def test_another_computation_or_other_feeds_run_again(counted, other):
    run_reference(_model(), _feeds())
    model, feeds = other()
    r = run_reference(model, feeds)
    assert len(counted) == 2
    want = {"another-initializer": [2.0, 4.0], "other-feeds": [4.0, 3.0]}
    assert np.asarray(r.outputs["y"]).tolist() in want.values()


def test_a_kept_run_is_never_changed_by_what_a_caller_gets(counted):
    first = run_reference(_model(), _feeds())
    first.observed.clear()
    first.outputs.clear()
    again = run_reference(_model(), _feeds())
    assert len(counted) == 1 and again.observed and np.asarray(again.outputs["y"]).tolist() == [1.0, 3.0]


def test_the_kept_runs_are_bounded_in_number_and_bytes(counted, monkeypatch):
    monkeypatch.setattr(reference, "RUNS_KEPT", 2)
    for x in (1.0, 2.0, 3.0):
        run_reference(_model(), _feeds((x, x)))
    assert len(reference._RUNS) == 2
    run_reference(_model(), _feeds((1.0, 1.0)))  # the oldest was dropped: evaluated again
    assert len(counted) == 4
    monkeypatch.setattr(reference, "RUNS_KEPT_BYTES", 8)  # less than one run's arrays
    run_reference(_model(), _feeds((5.0, 5.0)))
    assert not reference._RUNS


def test_the_feeds_digest_tells_every_kind_of_value_apart():
    d = reference._feeds_digest
    base = {"x": np.array([1.0, 2.0], np.float32)}
    assert d(base) == d({"x": np.array([1.0, 2.0], np.float32)})
    others = [
        {"x": np.array([1.0, 2.0], np.float64)},  # dtype
        {"x": np.array([[1.0, 2.0]], np.float32)},  # shape
        {"y": np.array([1.0, 2.0], np.float32)},  # name
        {"x": None},  # an absent optional
        {"x": [np.array([1.0], np.float32), np.array([2.0], np.float32)]},  # a sequence
        {"x": [np.array([1.0], np.float32)]},
        {"x": [np.array([3.0], np.float32), np.array([2.0], np.float32)]},  # a sequence of other values
        {"x": {1: np.array([1.0], np.float32)}},  # a map
        {"x": {2: np.array([1.0], np.float32)}},
        {"x": np.array(["a"], dtype=object)},
        {"x": np.array(["b"], dtype=object)},
    ]
    digests = [d(base)] + [d(o) for o in others]
    assert len(set(digests)) == len(digests)
    assert d({"a": None, "b": None}) == d({"b": None, "a": None})  # feed order carries no meaning
    # strings are compared by value, not by the objects an object array points to
    built = "".join(["a", "b"])
    assert d({"x": np.array([built], dtype=object)}) == d({"x": np.array(["ab"], dtype=object)})
