"""The annotation plan is kept by a weight-free fingerprint (issue 28): a model differing only in
initializer values reuses it; one differing in one annotation or one node gets its own, and is
judged by its own annotations in a real onnxruntime run."""

from __future__ import annotations

import hashlib
import pickle

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import observed_run
from passcheck.oracles import FormRun, annotations
from passcheck.oracles.shape_annotations import check
from passcheck.passes import PassOutcome
from passcheck.passes.isolation import IsolatedExecutor
from passcheck.runtime.completion import initializer_observations
from passcheck.runtime.observe import observe
from passcheck.runtime.plan import fingerprint, plan_of, want_dtype
from passcheck.runtime.profile import TensorMeta, np_dtype


def _model(
    weight: float = 1.0, mid: list | None = None, op: str = "Relu", elem: int = TensorProto.FLOAT
) -> onnx.ModelProto:
    """x [N, 3] + w (initializer) → a → ``op`` → y; ``a`` annotated ``elem`` ``mid`` (default FLOAT [N, 3])."""
    g = helper.make_graph(
        [helper.make_node("Add", ["x", "w"], ["a"]), helper.make_node(op, ["a"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        initializer=[numpy_helper.from_array(np.full(3, weight, np.float32), "w")],
        value_info=[helper.make_tensor_value_info("a", elem, mid or ["N", 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


FEEDS = {"x": np.ones((2, 3), np.float32)}


def test_a_model_differing_only_in_weight_values_reuses_the_plan():
    first = plan_of(_model(1.0))
    assert plan_of(_model(1.0)) is first  # parsed again, the same bytes
    assert plan_of(_model(-7.5)) is first  # other weights, the same graph and annotations


def test_a_model_differing_in_one_annotation_or_one_node_gets_its_own_plan():
    base = _model()
    first = plan_of(base)
    other_annotation = plan_of(_model(mid=["N", 4]))
    other_node = plan_of(_model(op="Neg"))
    assert other_annotation is not first and other_node is not first and other_node is not other_annotation
    assert [s[-1] for s in other_annotation.steps if s[0] == "a"] != [s[-1] for s in first.steps if s[0] == "a"]
    assert len({fingerprint(base), fingerprint(_model(mid=["N", 4])), fingerprint(_model(op="Neg"))}) == 3


def test_a_model_changed_in_place_is_planned_again():
    model = _model(mid=["changed_in_place", 3])
    first = plan_of(model)
    model.graph.value_info[0].type.tensor_type.shape.dim[1].dim_value = 4
    assert plan_of(model) is not first


def test_checks_sharing_a_plan_or_not_each_judge_their_own_model():
    """Real runs: a model whose annotation of ``a`` is wrong, checked between two models with the
    right one (one with other weights), is the only one with a violation."""
    good, wrong, reweighted = _model(1.0), _model(1.0, mid=["N", 4]), _model(2.0)
    reports = []
    for m in (good, wrong, reweighted, good):
        observed, unobservable = observe(m, FEEDS, "ort")
        reports.append(check(m, observed, unobservable=unobservable))
    assert [r.ok for r in reports] == [True, False, True, True]
    [v] = reports[1].violations
    assert v.value == "a" and v.rule == "dim-value"
    assert all(r.checked == r.annotated == 3 for r in reports)  # x, a, y


def test_a_plan_keeps_no_part_of_its_model():
    model = _model(mid=["only_here", 3])  # a fingerprint no other test plans: the plan is read from this object
    plan = plan_of(model)
    tp = next(s[2] for s in plan.steps if s[0] == "a")
    model.graph.value_info[0].type.tensor_type.elem_type = TensorProto.INT64  # the model changed afterwards
    assert tp.tensor_type.elem_type == TensorProto.FLOAT  # the plan's copy did not


def test_a_profiled_tensor_against_a_fully_static_annotation_is_judged_on_elem_type_and_shape():
    """The check's shortcut for a profiled tensor matching a fully static annotation compares the
    element type and every dim."""
    m = _model(mid=[2, 3], elem=TensorProto.DOUBLE)
    observed, unobservable = observe(m, FEEDS, "ort")
    [v] = check(m, observed, unobservable=unobservable).violations
    assert v.value == "a" and v.rule == "elem-type"
    assert check(_model(mid=[2, 3]), *observe(_model(mid=[2, 3]), FEEDS, "ort")[:1]).ok
    [v] = check(_model(mid=[2, 4]), *observe(_model(mid=[2, 4]), FEEDS, "ort")[:1]).violations
    assert v.value == "a" and v.rule == "dim-value"


def _digest(model: onnx.ModelProto) -> bytes:
    return hashlib.sha256(model.SerializeToString()).digest()


def test_the_fingerprint_kept_by_digest_is_that_models_own():
    """With the digest of each model's bytes, a model differing in one annotation or one node gets
    its own plan, one differing only in weights shares it."""
    base = _model(mid=["by_digest", 3])
    first = plan_of(base, _digest(base))
    assert plan_of(base, _digest(base)) is first
    reweighted = _model(-2.0, mid=["by_digest", 3])
    assert plan_of(reweighted, _digest(reweighted)) is first
    for other in (_model(mid=["by_digest", 4]), _model(mid=["by_digest", 3], op="Neg")):
        assert plan_of(other, _digest(other)) is not first
        assert plan_of(other, _digest(other)) is plan_of(other)


def test_a_tensor_meta_crosses_the_pipe_with_the_dtype_the_check_compares_by_identity():
    for elem in (TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL, TensorProto.FLOAT16):
        meta = TensorMeta((2, 3), np_dtype(elem))
        back = pickle.loads(pickle.dumps(meta))
        assert back == meta and back.dtype is want_dtype(elem)
    text = TensorMeta((1,), np.dtype("<U5"))  # not an element type's dtype: kept as it came
    assert pickle.loads(pickle.dumps(text)) == text


def test_checks_after_runs_in_the_isolation_worker_each_judge_their_own_model():
    """Real worker runs: each run carries the plan found by its model's digest; a model whose
    annotation of ``a`` is wrong, run between models with the right one (one with other weights),
    is the only one with a violation, and every annotated value is checked."""
    good, wrong, reweighted = _model(1.0, mid=["M", 3]), _model(1.0, mid=["M", 4]), _model(3.0, mid=["M", 3])
    reports = []
    with IsolatedExecutor() as ex, ex.fixed_models():
        for m in (good, wrong, reweighted, good):
            r = observed_run(m, FEEDS, ex.run_model)
            assert r.observed.of is m and r.observed.plan is plan_of(m)
            run = FormRun("c", "common", "p", m, PassOutcome("p", "unchanged", model=m), [FEEDS], [r], [r])
            reports.append((annotations.check(run), annotations.coverage(run)))
    assert [len(found) for found, _ in reports] == [0, 1, 0, 0]
    assert "axis 1 annotated 4, run produced 3" in reports[1][0][0].message
    assert all(cov["checked"] == cov["annotated"] == 3 for _, cov in reports)


def _weighted(dims: tuple[int, ...]) -> onnx.ModelProto:
    """x [2, 3] + w, w an initializer of ``dims`` annotated as a graph input with no shape."""
    g = helper.make_graph(
        [helper.make_node("Add", ["x", "w"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]), helper.make_tensor_value_info("w", 1, None)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializer=[numpy_helper.from_array(np.ones(dims, np.float32), "w")],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_annotated_initializers_are_kept_by_digest_and_names():
    one, row = _weighted((3,)), _weighted((1, 3))
    got = [initializer_observations(m, FEEDS, [], ["w"], _digest(m)) for m in (one, row, one)]
    assert [g["w"].shape for g in got] == [(3,), (1, 3), (3,)]
    assert initializer_observations(one, {**FEEDS, "w": np.zeros(3, np.float32)}, [], ["w"], _digest(one)) == {}


def test_an_observation_crosses_a_pickle_without_its_model():
    """A run's observed carries its model and plan in this process only: pickled, it is the plain
    dict of values (a worker's reply does not send the model back)."""
    model = _model(mid=["pickled", 3])
    observed, _ = observe(model, FEEDS, "ort")
    assert observed.of is model
    back = pickle.loads(pickle.dumps(observed))
    assert type(back) is dict and back.keys() == observed.keys()
