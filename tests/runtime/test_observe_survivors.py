"""Observation behaviours survivors of ``bench/mutation_score.py`` showed unguarded, with real
onnxruntime sessions and their profiles."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper, parser


def test_values_the_profile_gives_every_one_of_are_not_exposed(monkeypatch):
    """Mutant killed: ``by_profile <= profiled.keys()`` → ``<`` in ``_observe_ort``: when the profile held
    exactly the values to read from it (every node output annotated, none a graph output: here the output
    is an initializer, IR.md §Graphs), the run was made again exposing every value."""
    import passcheck.runtime.observe as obs

    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) <float[2] y = {1.0, 2.0}> { h = Relu (x) }""")
    model.graph.value_info.append(helper.make_tensor_value_info("h", 1, [2]))
    monkeypatch.setattr(obs, "_run_exposed", lambda *a, **k: pytest.fail("fell back to exposing every value"))
    observed, _ = obs.observe(model, {"x": np.array([1.0, -1.0], np.float32)}, "ort")
    assert (observed["h"].shape, observed["h"].dtype) == ((2,), np.float32)
    assert (observed["y"].shape, observed["y"].dtype) == ((2,), np.float32)


def test_a_sequence_input_is_fed_as_a_sequence_while_a_tensor_value_is_observed():
    """Mutant killed: ``by_profile and not not_tensor`` → ``or`` in ``_observe_ort``: a model with an annotated
    sequence input and an annotated tensor value was run on the profiled path, which feeds every input as a
    tensor (OrtValue.ortvalue_from_numpy), and onnxruntime refused the sequence: no observation at all."""
    from passcheck.runtime.observe import observe

    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (seq(float[2]) s) => (float[2] y) <int64 i = {0}> {
  h = SequenceAt (s, i)
  y = Relu (h)
}""")
    model.graph.value_info.append(helper.make_tensor_value_info("h", 1, [2]))
    feeds = {"s": [np.array([1.0, -1.0], np.float32), np.array([2.0, 3.0], np.float32)]}
    observed, _ = observe(model, feeds, "ort")
    np.testing.assert_array_equal(observed["h"], feeds["s"][0])
    np.testing.assert_array_equal(observed["y"], [1.0, 0.0])


#: A Constant (onnxruntime makes it an initializer: no kernel, no profile event), an intermediate and an output.
THREE = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
  k = Constant <value = float[2] {1.0, -1.0}> ()
  h = Mul (x, k)
  y = Relu (h)
}"""


def _no_fallback(monkeypatch) -> None:
    import passcheck.runtime.observe as obs

    monkeypatch.setattr(obs, "run_ort", lambda *a, **k: pytest.fail("fell back to exposing every value"))


def test_shapes_asked_for_come_from_the_profile_except_constants_and_outputs_which_keep_their_values(monkeypatch):
    """Mutants killed: either ``|`` of ``skip = set(outputs) | constants | set(feeds)`` → ``&`` in
    ``run_observing``: a graph output read from the profile (a TensorMeta where its value is returned), or a
    Constant's output looked for in the profile, which has no event for it (the run made again exposing all)."""
    from passcheck.runtime.observe import run_observing
    from passcheck.runtime.profile import TensorMeta

    _no_fallback(monkeypatch)
    x = np.array([2.0, 3.0], np.float32)
    r = run_observing(parser.parse_model(THREE), {"x": x}, shapes=["k", "h", "y"])
    assert not r.error, r.error
    assert r.observed["k"] == TensorMeta((2,), np.dtype(np.float32))
    assert r.observed["h"] == TensorMeta((2,), np.dtype(np.float32))
    np.testing.assert_array_equal(r.observed["y"], [2.0, 0.0])
    np.testing.assert_array_equal(r.outputs["y"], [2.0, 0.0])


def test_graph_inputs_and_outputs_asked_for_by_shape_keep_their_values():
    """Mutant killed: ``outputs | inputs`` → ``&`` in ``_shapes_only``: a graph output (or input) asked for
    by shape only was turned into a TensorMeta, though a run returns them whole."""
    from passcheck.runtime.observe import run_observing

    x = np.array([2.0, 3.0], np.float32)
    r = run_observing(parser.parse_model(THREE), {"x": x}, shapes=["x", "y"])
    assert not r.error, r.error
    np.testing.assert_array_equal(r.observed["x"], x)
    np.testing.assert_array_equal(r.observed["y"], [2.0, 0.0])


def test_shapes_the_profile_gives_every_one_of_are_not_exposed(monkeypatch):
    """Mutant killed: ``by_profile <= profiled.keys()`` → ``<`` in ``run_observing``: when the profile held
    exactly the values asked for (the graph output an initializer, every node output asked for), the run
    was made again exposing them."""
    from passcheck.runtime.observe import run_observing
    from passcheck.runtime.profile import TensorMeta

    _no_fallback(monkeypatch)
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) <float[2] y = {1.0, 2.0}> { h = Relu (x) }""")
    r = run_observing(model, {"x": np.array([1.0, -1.0], np.float32)}, shapes=["h"])
    assert not r.error, r.error
    assert r.observed["h"] == TensorMeta((2,), np.dtype(np.float32))


def test_a_value_onnxruntime_refuses_to_expose_is_not_a_failed_run():
    """Exposing a sparse Constant's output makes onnxruntime fail the run; the run without it succeeds,
    and that is the result (observing must never become a finding against the model)."""
    from onnx import TensorProto

    from passcheck.runtime.observe import observe_run, run_observing
    from passcheck.runtime.plan import ObservationPlan

    sparse = helper.make_sparse_tensor(
        helper.make_tensor("v", TensorProto.FLOAT, [1], [2.0]),
        helper.make_tensor("i", TensorProto.INT64, [1], [1]),
        [3],
    )
    nodes = [helper.make_node("Constant", [], ["c"], sparse_value=sparse), helper.make_node("Add", ["x", "c"], ["y"])]
    io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("x", "y")]
    model = helper.make_model(
        helper.make_graph(nodes, "g", io[:1], io[1:]), opset_imports=[helper.make_opsetid("", 17)], ir_version=8
    )
    feeds = {"x": np.zeros(3, np.float32)}
    assert run_observing(model, feeds, expose=["c"]).error  # onnxruntime refuses it as an output
    r = observe_run(model, feeds, ObservationPlan.of({"folding": ["c"]}))
    assert not r.error, r.error
    np.testing.assert_array_equal(r.outputs["y"], np.array([0.0, 2.0, 0.0], np.float32))
