"""The reference runner on an evaluator whose ``run`` has no ``intermediate`` keyword (onnx 1.16's
signature, simulated on the installed onnx): every value of the main graph, of a Loop body and of
a model-local function is observed as with the keyword, and the runner never passes it."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.runtime import reference
from passcheck.runtime.reference import run_reference


def _simulate_116(monkeypatch) -> None:
    """ReferenceEvaluator.run with onnx 1.16's parameters: ``intermediate`` is a TypeError."""
    from onnx.reference import ReferenceEvaluator

    original = ReferenceEvaluator.run

    def run(self, output_names, feed_inputs, attributes=None, *, _bindings=None):
        # no ``intermediate``: passing it is Python's TypeError at the call site, as on onnx 1.16
        # (``_bindings``: the installed evaluator's own nested calls pass it)
        extra = {"_bindings": _bindings} if _bindings is not None else {}
        return original(self, output_names, feed_inputs, attributes=attributes, **extra)

    monkeypatch.setattr(ReferenceEvaluator, "run", run)
    reference.has_intermediate.cache_clear()


@pytest.fixture
def onnx116_run(monkeypatch):
    _simulate_116(monkeypatch)
    yield
    reference.has_intermediate.cache_clear()


def _vi(name, elem, dims):
    return helper.make_tensor_value_info(name, elem, dims)


def _model() -> onnx.ModelProto:
    """y = f(Loop(3 × (v + 1)) of relu(x)), f a model-local function (Neg then Abs)."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]), helper.make_node("Add", ["v_in", "one"], ["v_out"])],
        "body",
        [_vi("i", TensorProto.INT64, []), _vi("cond_in", TensorProto.BOOL, []), _vi("v_in", TensorProto.FLOAT, [2])],
        [_vi("cond_out", TensorProto.BOOL, []), _vi("v_out", TensorProto.FLOAT, [2])],
    )
    f = helper.make_function(
        "local",
        "f",
        ["a"],
        ["b"],
        [helper.make_node("Neg", ["a"], ["t"]), helper.make_node("Abs", ["t"], ["b"])],
        [helper.make_opsetid("", 17)],
    )
    const = onnx.numpy_helper.from_array
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Constant", [], ["one"], value_float=1.0),
        helper.make_node("Constant", [], ["n"], value=const(np.array(3, np.int64))),
        helper.make_node("Constant", [], ["c"], value=const(np.array(True))),
        helper.make_node("Loop", ["n", "c", "r"], ["looped"], body=body),
        helper.make_node("f", ["looped"], ["y"], domain="local"),
    ]
    g = helper.make_graph(nodes, "g", [_vi("x", TensorProto.FLOAT, [2])], [_vi("y", TensorProto.FLOAT, [2])])
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)]
    return helper.make_model(g, functions=[f], opset_imports=opsets)


def _plain(values):
    return {
        k: [np.asarray(x).tolist() for x in v] if isinstance(v, list) else np.asarray(v).tolist()
        for k, v in values.items()
    }


def test_values_are_observed_without_the_intermediate_keyword(onnx116_run):
    from onnx.reference import ReferenceEvaluator

    assert not reference.has_intermediate()
    with pytest.raises(TypeError):  # the simulation holds: the keyword the runner used to pass is refused
        ReferenceEvaluator(_model()).run(None, {"x": np.array([1.0, -2.0], np.float32)}, intermediate=True)
    r = run_reference(_model(), {"x": np.array([1.0, -2.0], np.float32)})
    assert r.error is None
    assert np.asarray(r.outputs["y"]).tolist() == [4.0, 3.0]
    seen = _plain(r.observed)
    assert seen["r"] == [1.0, 0.0] and seen["looped"] == [4.0, 3.0]
    loop_values = [k for k in seen if "::v_out" in k]
    assert loop_values and [len(seen[k]) for k in loop_values] == [3]  # once per iteration
    assert seen["function local.f::t"] == [[-4.0, -3.0]]


def test_the_fallback_observes_what_the_keyword_observes(monkeypatch):
    feeds = {"x": np.array([0.5, -1.0], np.float32)}
    reference.has_intermediate.cache_clear()
    with_keyword = run_reference(_model(), feeds)
    assert reference.has_intermediate()
    _simulate_116(monkeypatch)
    try:
        without = run_reference(_model(), feeds)
    finally:
        reference.has_intermediate.cache_clear()
    assert _plain(without.outputs) == _plain(with_keyword.outputs)
    assert _plain(without.observed) == _plain(with_keyword.observed)


def test_a_fault_of_the_runner_itself_is_passchecks_in_the_generator_gate(monkeypatch):
    """The runner calling the installed evaluator wrongly (here: passing ``intermediate`` to an
    onnx 1.16 signature, as before the fallback) is passcheck's drop, never the evaluator's."""
    from passcheck.generate.gate import gate
    from passcheck.runtime.session import RunResult

    _simulate_116(monkeypatch)
    monkeypatch.setattr(reference, "has_intermediate", lambda: True)  # a wrong detection
    r = run_reference(_model(), {"x": np.array([1.0, -2.0], np.float32)})
    assert r.error.startswith(reference.RUNNER_FAULT) and "intermediate" in r.error
    common, other = _model(), _model()
    other.graph.node[0].name = "relu"
    v = gate(
        {"common": common, "named": other},
        [{"x": np.array([1.0, -2.0], np.float32)}],
        lambda m, f: RunResult({"y": np.array([4.0, 3.0], np.float32)}, {}),
        checker=lambda m: None,
    )
    assert (v.ok, v.category, v.reason) == (False, "passcheck", "passcheck's reference runner fails")


def test_only_an_error_raised_in_the_runners_own_file_is_the_runners_fault():
    """Mutants killed: ``==`` → ``<=`` / ``>=`` in ``reference._raised_here``, which blamed the runner for
    an error whose innermost frame is in a file whose path merely sorts before or after its own."""
    import os

    def raised_in(filename: str) -> BaseException:
        try:
            exec(compile("raise ValueError('x')", filename, "exec"))
        except ValueError as exc:
            return exc
        raise AssertionError("nothing raised")

    here = reference.__file__
    assert reference._raised_here(raised_in(here))
    for neighbour in ("profile.py", "session.py"):  # sorts before / after reference.py
        assert not reference._raised_here(raised_in(os.path.join(os.path.dirname(here), neighbour)))
    # the evaluator's own error (Reshape of 2 elements to 3) is the evaluator's, wherever onnx is installed
    g = helper.make_graph(
        [helper.make_node("Reshape", ["x", "s"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [onnx.numpy_helper.from_array(np.array([3], np.int64), "s")],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    r = run_reference(model, {"x": np.array([1.0, 2.0], np.float32)})
    assert r.error and not r.error.startswith(reference.RUNNER_FAULT)


def test_the_nodes_wrapped_for_a_run_without_intermediate_get_their_own_run_back():
    """Mutant killed: ``for node in wrapped`` → ``for node in []`` in ``reference._values_by_node``'s
    restore, which left every node's ``run`` wrapped after the call: an evaluator run again (a Loop body,
    once per iteration) would nest one recorder per run."""
    from onnx.reference import ReferenceEvaluator

    ev = ReferenceEvaluator(_model())
    before = [node.run for node in ev.rt_nodes_]
    feeds = {"x": np.array([1.0, -2.0], np.float32)}
    returned, results = reference._values_by_node(ev, ev.run, None, feeds, None, {})
    assert [node.run for node in ev.rt_nodes_] == before
    assert set(results) >= {n for node in ev.rt_nodes_ for n in node.output if n}
    np.testing.assert_array_equal(returned[0], ev.run(None, feeds)[0])
