"""The first binding's reference-evaluator run (the If-branch and function values onnxruntime cannot
show) is made in a thread while the isolation worker runs the model (:func:`passcheck.runtime.observe.reference_ahead`),
and the observations are those of the runs made one after the other."""

from __future__ import annotations

import json
import threading

import numpy as np
import onnx
import onnx.parser
import pytest
from onnx import TensorProto, helper

from passcheck import engine
from passcheck.passes.isolation import IsolatedExecutor
from passcheck.runtime import observe, reference


def _branch(op: str):
    return helper.make_graph(
        [helper.make_node(op, ["x"], [f"n_{op}"]), helper.make_node("Relu", [f"n_{op}"], [f"o_{op}"])],
        f"b_{op}",
        [],
        [helper.make_tensor_value_info(f"o_{op}", TensorProto.FLOAT, [2])],
        value_info=[helper.make_tensor_value_info(f"n_{op}", TensorProto.FLOAT, [2])],
    )


def _if_model():
    graph = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=_branch("Neg"), else_branch=_branch("Abs"))],
        "speed31-reference-ahead",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _normal(observed: dict) -> dict:
    return {
        k: (np.asarray(v).tolist() if not hasattr(v, "shape") or isinstance(v, np.ndarray) else repr(v))
        for k, v in observed.items()
    }


@pytest.fixture(scope="module")
def executor():
    with IsolatedExecutor() as ex:
        yield ex


def _runs(model, feeds, ex, tmp_path, monkeypatch, name):
    reference._RUNS.clear()
    timings = tmp_path / f"{name}.jsonl"
    monkeypatch.setenv("PASSCHECK_TIMINGS", str(timings))
    callers: list[str] = []
    real = reference.run_reference

    def spy(m, f, **kw):
        callers.append(threading.current_thread().name)
        return real(m, f, **kw)

    monkeypatch.setattr(reference, "run_reference", spy)
    with ex.fixed_models():
        runs = engine._observed_runs(model, feeds, ex.run_model)
    lines = [json.loads(x) for x in timings.read_text().splitlines()] if timings.exists() else []
    return runs, callers, [x for x in lines if x["job"] == reference.REFERENCE_LABEL]


def test_the_first_bindings_reference_run_is_made_while_the_worker_runs(executor, tmp_path, monkeypatch):
    # every run is over the cache's byte budget, as a ResNet-50 with function bodies is: the run made ahead is held
    monkeypatch.setattr(reference, "RUNS_KEPT_BYTES", 1)
    model = _if_model()
    feeds = [
        {"x": np.array([-1.0, 2.0], np.float32), "c": np.array(True)},
        {"x": np.array([3.0, -4.0], np.float32), "c": np.array(False)},
    ]
    runs, callers, evaluated = _runs(model, feeds, executor, tmp_path, monkeypatch, "ahead")
    assert callers[0] == "passcheck-reference-ahead"  # the first binding's, in the thread
    assert len(evaluated) == 2  # one evaluation per binding: observe_run found the thread's run in the cache
    monkeypatch.setattr(engine, "reference_ahead", lambda *a: None)
    plain, plain_callers, plain_evaluated = _runs(model, feeds, executor, tmp_path, monkeypatch, "plain")
    assert "passcheck-reference-ahead" not in plain_callers and len(plain_evaluated) == 2
    for a, b in zip(runs, plain, strict=True):
        assert a.error == b.error and a.unobservable == b.unobservable
        assert _normal(a.observed) == _normal(b.observed)
        assert {k: np.asarray(v).tolist() for k, v in a.outputs.items()} == {
            k: np.asarray(v).tolist() for k, v in b.outputs.items()
        }
    assert any("then_branch::n_Neg" in k for k in runs[0].observed)  # the branch values were observed


def test_no_thread_when_onnxruntime_shows_every_value_asked_for():
    model = onnx.parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 17]> flat (float[2] x) => (float[2] y) { y = Relu(x) }'
    )
    assert observe.reference_ahead(model, {"x": np.zeros(2, np.float32)}, engine._plan(model, None)) is None
