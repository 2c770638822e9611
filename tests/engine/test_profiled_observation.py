"""The judged runs of ``check``/``run``/``compare`` read annotated tensors' shapes from
onnxruntime's profile of the run (nothing exposed) and annotated initializers from the model; a
planted wrong annotation is caught on the profile path and on the exposure fallback, in process
and in the isolated worker (issue 13 item 5)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import parser

import passcheck.runtime.observe as obs
import passcheck.runtime.profile as prof
from passcheck.api import check_model
from passcheck.engine import observed_run, plan_for
from passcheck.oracles.shape_annotations import check
from passcheck.passes.isolation import IsolatedExecutor
from passcheck.runtime.observe import TensorMeta
from tests.runtime.test_observe import sequence_annotated_as_tensor

#: ``w`` is a graph input with an initializer (an overridable default): a value of known shape.
WEIGHTED = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 3] x, float[3] w) => (float[N, 3] y) <float[3] w = {1.0, -2.0, 3.0}> {
  h = Add(x, w)
  k = Relu(h)
  y = Neg(k)
}"""
FEEDS = {"x": np.arange(6, dtype=np.float32).reshape(2, 3)}


def _annotated(text: str) -> onnx.ModelProto:
    return onnx.shape_inference.infer_shapes(parser.parse_model(text), strict_mode=True)


def _planted(model: onnx.ModelProto, name: str, axis: int, size: int) -> onnx.ModelProto:
    """``model`` with axis ``axis`` of ``name``'s annotation (value_info or graph input) set to ``size``."""
    bad = onnx.ModelProto()
    bad.CopyFrom(model)
    vi = next(v for v in list(bad.graph.value_info) + list(bad.graph.input) if v.name == name)
    vi.type.tensor_type.shape.dim[axis].dim_value = size
    return bad


def _no_exposure(monkeypatch) -> list[str]:
    """Fail if the run falls back to exposing values; return the names any session copy exposed."""
    added: list[str] = []
    real_copy = prof.observation_copy  # the session copy is made in passcheck.runtime.profile

    def copy(model, expose):
        result = real_copy(model, expose)
        added.extend(result[1])
        return result

    monkeypatch.setattr(prof, "observation_copy", copy)
    monkeypatch.setattr(obs, "run_ort", lambda *a, **k: pytest.fail("fell back to exposing every value"))
    return added


def test_plan_asks_shapes_of_annotated_tensors_and_nothing_exposed():
    plan = plan_for(_annotated(WEIGHTED))
    assert plan.main == [] and {"h", "k", "w"} <= set(plan.main_shapes)


def test_profile_path_observes_shapes_without_exposing_and_catches_a_planted_violation(monkeypatch):
    added = _no_exposure(monkeypatch)
    good = _annotated(WEIGHTED)
    r = observed_run(good, FEEDS)
    assert not r.error and added == []
    assert r.observed["k"] == TensorMeta((2, 3), np.dtype(np.float32))  # from the profile: no copy of the activation
    np.testing.assert_array_equal(r.outputs["y"], -np.maximum(FEEDS["x"] + [1, -2, 3], 0))
    rep = check(good, r.observed)
    assert rep.ok and rep.checked == rep.annotated

    bad = _planted(good, "k", 1, 7)
    rep = check(bad, observed_run(bad, FEEDS).observed)
    assert [(v.value, v.rule) for v in rep.violations] == [("k", "dim-value")]
    assert added == []


def test_initializer_listed_as_input_is_checked_against_its_default_and_against_a_fed_value():
    good = _annotated(WEIGHTED)
    r = observed_run(good, FEEDS)
    assert r.observed["w"] == TensorMeta((3,), np.dtype(np.float32))
    assert "w" not in check(good, r.observed).unobserved

    bad = _planted(good, "w", 0, 4)  # the default [3] does not fit the input's annotation [4]
    rep = check(bad, observed_run(bad, FEEDS).observed)
    assert [(v.value, v.rule, v.role) for v in rep.violations] == [("w", "dim-value", "precondition")]
    fed = observed_run(bad, {**FEEDS, "w": np.ones(4, np.float32)})  # a fed value overrides the default
    assert "w" not in {v.value for v in check(bad, fed.observed).violations}


def test_worker_and_check_catch_the_planted_violation_and_check_every_annotation():
    good = _annotated(WEIGHTED)
    bad = _planted(good, "k", 1, 7)
    with IsolatedExecutor() as ex:
        r = observed_run(bad, FEEDS, ex.run_model)
        assert r.observed["k"] == TensorMeta((2, 3), np.dtype(np.float32))
        assert [(v.value, v.rule) for v in check(bad, r.observed).violations] == [("k", "dim-value")]
        report = check_model(bad, ["input"], executor=ex)
    (cell,) = report.cells
    found = [f.message for f in cell.findings if f.kind == "annotation-violated"]  # static checks flag it too
    assert found and all("k: axis 1 annotated 7" in m for m in found), found  # one per binding
    assert cell.coverage["checked"] == cell.coverage["annotated"]  # w included: nothing reported "not produced"


def test_exposure_fallback_when_onnxruntime_rewrote_the_graph_still_catches_a_planted_violation():
    """onnxruntime runs float16 Sin in float32 between inserted casts: the profile is not believed."""
    m = _annotated("""<ir_version: 8, opset_import: ["" : 18]>
g (float16[N] x) => (float16[N] y) {
  h = Sin (x)
  y = Relu (h)
}""")
    feeds = {"x": np.ones(3, np.float16)}
    r = observed_run(m, feeds)
    assert r.observed["h"] == TensorMeta((3,), np.dtype(np.float16)) and check(m, r.observed).ok
    bad = _planted(m, "h", 0, 5)
    assert [(v.value, v.rule) for v in check(bad, observed_run(bad, feeds).observed).violations] == [("h", "dim-value")]


def test_a_tensor_annotation_on_a_sequence_is_still_a_kind_violation():
    m = sequence_annotated_as_tensor()
    assert "s" in plan_for(m).main_shapes
    rep = check(m, observed_run(m, {"x": np.ones(2, np.float32)}).observed)
    assert [(v.value, v.rule) for v in rep.violations] == [("s", "kind")]


def test_a_model_with_a_subgraph_keeps_the_profile_for_its_main_graph(monkeypatch):
    added = _no_exposure(monkeypatch)
    m = _annotated("""<ir_version: 8, opset_import: ["" : 18]>
g (bool c, float[N] x) => (float[N] y) {
  h = Relu(x)
  r = If(c) <then_branch = t () => (float[N] a) { a = Neg(h) },
             else_branch = e () => (float[N] b) { b = Identity(h) }>
  y = Sigmoid(r)
}""")
    assert {"h", "r"} <= {vi.name for vi in m.graph.value_info}
    feeds = {"c": np.array(True), "x": np.ones(3, np.float32)}
    r = observed_run(m, feeds)
    assert r.observed["r"] == TensorMeta((3,), np.dtype(np.float32)) and added == []
    np.testing.assert_array_equal(r.observed["If#1.then_branch::a"][0], -feeds["x"])  # the branch: reference evaluator
    assert check(m, r.observed).ok
    bad = _planted(m, "r", 0, 4)
    assert [(v.value, v.rule) for v in check(bad, observed_run(bad, feeds).observed).violations] == [("r", "dim-value")]
