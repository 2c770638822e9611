"""M261–M263 (round 15e): onnx's tools on a candidate form run in the front door's isolation worker.

``planted_tool_death.py`` gives :func:`passcheck.runtime.isolated_tools.infer_job` and
:func:`passcheck.runtime.reference.run_reference` a body that calls ``os.abort()`` on a model of graph
``isolate36-plant``; preloaded in a real worker, every former in-process site (the hunt's neighbour builders, the
generator's gate, the rewrites' own inference, the gates' second opinion) must survive the death with its documented
fallback, and the death must be reported. A hunt on that base (a subprocess: a death in its own process would end it)
must finish and list the deaths in its items.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.errors import WorkerDied
from passcheck.runtime import isolated_tools

PLANTED = Path(__file__).with_name("planted_tool_death.py")
FEEDS = {"x": np.ones((2, 4), np.float32)}


def _plant() -> onnx.ModelProto:
    """The planted case's model (built here: importing the module would plant the abort in this process too)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    inits = [numpy_helper.from_array(np.array([0.5, -1.0, 2.0, 0.25], np.float32), "w")]
    nodes = [helper.make_node("Mul", ["x", "w"], ["m"], name="mul"), helper.make_node("Relu", ["m"], ["y"])]
    graph = helper.make_graph(nodes, "isolate36-plant", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _sites():
    """(label, call, check of its result): every routed call site, each with what it gives when inference fails."""
    from passcheck.generate import body_refusal, gate
    from passcheck.hunt import compose, elem_groups, fed_shapes, variation, vary_inputs, vary_twin
    from passcheck.mutations import _shapes, axes, identity, index_dtype, outer_reads, value_info

    def refreshed(m):
        before = m.SerializeToString()
        variation._refresh_annotations(m)
        return m.SerializeToString() == before

    return [
        ("compose._typed", lambda m: compose._typed(m), lambda r: set(r) >= {"x", "w", "y"}),
        ("fed_shapes.inferred", lambda m: fed_shapes.inferred(m, FEEDS), lambda r: "SIGABRT" in r),
        ("variation._refresh_annotations", refreshed, lambda r: r is True),
        ("variation._inferred", lambda m: variation._inferred(m), lambda r: "m" not in r and "y" in r),
        ("vary_inputs._output_shapes", lambda m: vary_inputs._output_shapes(m), lambda r: r is None),
        ("vary_twin._inferred", lambda m: vary_twin._inferred(m), lambda r: r == {}),
        ("elem_groups.holds", lambda m: elem_groups.holds(m, {}, frozenset(), 1), lambda r: r is False),
        ("gate._text_rule_break", lambda m: gate._text_rule_break(m), lambda r: r is None),
        ("body_refusal._input_types", lambda m: body_refusal._input_types(m, m.graph.node[0]), lambda r: len(r) == 2),
        ("mutations._shapes.known", lambda m: _shapes.known(m), lambda r: "m" not in r and "y" in r),
        ("mutations.axes._ranks", lambda m: axes._ranks(m), lambda r: "m" not in r),
        ("mutations.identity._tensor_values", lambda m: identity._tensor_values(m), lambda r: r == set()),
        ("mutations.index_dtype.value_types", lambda m: index_dtype.value_types(m), lambda r: r == {}),
        ("mutations.outer_reads._elem_types", lambda m: outer_reads._elem_types(m), lambda r: "m" not in r),
        ("mutations.value_info.infer", lambda m: value_info.infer(m), lambda r: r == []),
    ]


@pytest.fixture(scope="module")
def planted_worker():
    from passcheck.passes.isolation import IsolatedExecutor

    with IsolatedExecutor(timeout=60, preload=[PLANTED]) as ex:
        yield ex


@pytest.mark.parametrize("label", [s[0] for s in _sites()])
def test_each_former_in_process_site_survives_inference_killing_the_worker(planted_worker, label):
    _, call, holds = next(s for s in _sites() if s[0] == label)
    with isolated_tools.within(planted_worker) as scope:
        got = call(_plant())
    assert holds(got), (label, got)
    assert scope.deaths and all(d == "onnx shape inference killed its process: SIGABRT" for d in scope.deaths), (
        scope.deaths
    )


def test_a_death_is_raised_as_worker_died_and_the_worker_serves_the_next_call(planted_worker):
    other = _plant()
    other.graph.name = "fine"
    with isolated_tools.within(planted_worker) as scope:
        with pytest.raises(WorkerDied, match="SIGABRT"):
            isolated_tools.infer_shapes(_plant(), strict_mode=True)
        done = isolated_tools.infer_shapes(other)  # a fresh worker, real inference
    assert [v.name for v in done.graph.value_info] == ["m"]
    assert scope.drain() == ["onnx shape inference killed its process: SIGABRT"] and scope.deaths == []


def test_the_reference_evaluator_s_death_is_a_run_error(planted_worker):
    with isolated_tools.within(planted_worker) as scope:
        rr = isolated_tools.run_reference(_plant(), FEEDS)
    assert rr.outputs == {} and rr.error == "the reference evaluator killed its process: SIGABRT"
    assert scope.deaths == [rr.error]
    fine = _plant()
    fine.graph.name = "fine"
    ok = isolated_tools.run_reference(fine, FEEDS, planted_worker)  # the worker named, no block
    assert ok.error is None and np.allclose(ok.outputs["y"], [[0.5, 0, 2, 0.25]] * 2)


def test_outside_a_block_the_tools_run_here():
    m = _plant()
    m.graph.name = "fine"
    assert isolated_tools.current() is None
    assert [v.name for v in isolated_tools.infer_shapes(m).graph.value_info] == ["m"]


def test_the_library_gate_given_no_runner_runs_in_the_shared_worker(monkeypatch):
    """M262: ``verify_equivalent`` with no runner and no checker runs the models in the process's shared worker."""
    from passcheck.mutations import equivalence
    from passcheck.passes.shared import shared_executor

    monkeypatch.setattr(equivalence, "run_ort", lambda *a, **k: pytest.fail("onnxruntime ran in this process"))
    m = _plant()
    m.graph.name = "fine"
    swapped = onnx.ModelProto()
    swapped.CopyFrom(m)
    swapped.graph.node[0].input[:] = ["w", "x"]  # Mul is commutative
    runner, checker = equivalence.isolated_defaults(None, None)
    assert runner.__self__ is shared_executor() and checker._call.__self__ is shared_executor()
    equivalence.verify_equivalent(m, swapped, [FEEDS], "operands-swapped")
    wrong = onnx.ModelProto()
    wrong.CopyFrom(m)
    wrong.graph.node[1].op_type = "Neg"
    with pytest.raises(equivalence.PasscheckInternalError, match="differs"):
        equivalence.verify_equivalent(m, wrong, [FEEDS], "negated")


def test_a_hunt_survives_inference_killing_its_worker_and_lists_the_deaths(tmp_path):
    out = tmp_path / "hunt"
    argv = [sys.executable, "-m", "passcheck", "hunt", "--cases-from", str(PLANTED), "--case", "isolate36/*"]
    argv += ["--pass", "ort:basic", "--budget", "8items", "--seed", "1", "--no-coverage", "--out", str(out)]
    r = subprocess.run([*argv, "--progress", "none"], capture_output=True, text=True, timeout=900)
    assert r.returncode in (0, 1), (r.returncode, r.stderr[-3000:])
    items = json.loads((out / "hunt-state.json").read_text())["items"]
    assert len(items) == 8
    deaths = [d for i in items for d in i.get("tool_deaths", ())]
    assert f"tool deaths on forms the hunt made: {len(deaths)} in " in r.stderr, r.stderr[-2000:]
    assert deaths and set(deaths) <= {
        "onnx shape inference killed its process: SIGABRT",
        "the reference evaluator killed its process: SIGABRT",
    }, deaths


def test_a_big_weight_crosses_the_pipe_once_and_comes_back_whole():
    """The reply leaves out initializer payloads of 1 MiB or more and the caller's copy puts them back: the result is
    the in-process one, byte for byte; the worker keeps the model, so a second inference sends no bytes."""
    from passcheck.passes.isolation import IsolatedExecutor

    w = numpy_helper.from_array(np.arange(512 * 512, dtype=np.float32).reshape(512, 512), "w")  # 1 MiB
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 512])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 512])
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Relu", ["m"], ["y"])]
    m = helper.make_model(helper.make_graph(nodes, "big", [x], [y], [w]), opset_imports=[helper.make_opsetid("", 17)])
    here = [isolated_tools.infer_shapes(m), isolated_tools.infer_shapes(m, data_prop=True)]
    sent = []
    with IsolatedExecutor(timeout=60) as ex, isolated_tools.within(ex):  # no plant: the real infer_job
        run = ex.run
        ex.run = lambda blob, data, workdir: sent.append(len(data)) or run(blob, data, workdir)
        # other flags: the worker infers again (not in the block's memo, M301) on the model it keeps
        there = [isolated_tools.infer_shapes(m), isolated_tools.infer_shapes(m, data_prop=True)]
    assert [t.SerializeToString() for t in there] == [t.SerializeToString() for t in here]
    assert sent[0] > 1 << 20 and sent[1:] == [0], sent


def test_a_model_inferred_again_in_a_block_is_read_from_the_block_s_memo():
    """M301: the same bytes with the same flags are inferred once per block; each caller gets its own copy of the
    in-process result; other flags, other bytes, a call that raised and a new block ask the worker again."""
    from passcheck.passes.isolation import IsolatedExecutor

    m = _plant()
    here = {f: isolated_tools.infer_shapes(m, strict_mode=f).SerializeToString() for f in (False, True)}
    bad = onnx.ModelProto()
    bad.CopyFrom(m)
    bad.graph.initializer[0].CopyFrom(numpy_helper.from_array(np.ones(4, np.int64), "w"))  # Mul's T: float, int64
    sent = []
    with IsolatedExecutor(timeout=60) as ex:
        run = ex.run
        ex.run = lambda blob, data, workdir: sent.append(len(data)) or run(blob, data, workdir)
        with isolated_tools.within(ex):
            first, again = isolated_tools.infer_shapes(m), isolated_tools.infer_shapes(m)
            assert len(sent) == 1 and first is not again, sent
            assert first.SerializeToString() == again.SerializeToString() == here[False]
            first.graph.ClearField("value_info")  # a caller's edit is its own
            assert isolated_tools.infer_shapes(m).SerializeToString() == here[False] and len(sent) == 1
            assert isolated_tools.infer_shapes(m, strict_mode=True).SerializeToString() == here[True]
            assert len(sent) == 2, sent
            other = onnx.ModelProto()
            other.CopyFrom(m)
            other.graph.node[1].name = "relu"
            assert len(isolated_tools.infer_shapes(other).graph.value_info) == 1 and len(sent) == 3
            for _ in range(2):
                with pytest.raises(onnx.shape_inference.InferenceError):
                    isolated_tools.infer_shapes(bad, check_type=True, strict_mode=True)
            assert len(sent) == 5, sent
        with isolated_tools.within(ex):  # a new block: a new memo
            assert isolated_tools.infer_shapes(m).SerializeToString() == here[False] and len(sent) == 6


def test_the_summary_counts_the_deaths():
    from passcheck.hunt import noise

    assert noise.deaths_line([{"status": "done"}, {"tool_deaths": []}]) is None
    line = noise.deaths_line([{"tool_deaths": ["a", "a"]}, {}, {"tool_deaths": ["b"]}])
    assert line.startswith("tool deaths on forms the hunt made: 3 in 2 items") and line.endswith("commonest (2): a")


def _plant_with_a_branch() -> onnx.ModelProto:
    """The planted graph with its Relu inside an If's branch (an annotated subgraph value onnxruntime cannot expose)."""
    m = _plant()
    g = m.graph
    t = helper.make_tensor_value_info("t", TensorProto.FLOAT, [2, 4])
    then = helper.make_graph([helper.make_node("Relu", ["m"], ["t"])], "then", [], [t])
    u = helper.make_tensor_value_info("u", TensorProto.FLOAT, [2, 4])
    other = helper.make_graph([helper.make_node("Neg", ["m"], ["u"])], "else", [], [u])
    g.initializer.append(numpy_helper.from_array(np.array(True), "c"))
    del g.node[1:]
    g.node.append(helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other))
    return m


def _completed(model):
    from passcheck.runtime.completion import _unobservable_by_ort, with_subscopes

    blind = _unobservable_by_ort(model)
    assert blind, "the branch's value is one onnxruntime cannot expose"
    _, why = with_subscopes(model, FEEDS, {}, blind)
    return why


def _overflowed(model):
    from passcheck.oracles.overflow import overflowed_outputs

    return overflowed_outputs(model, FEEDS)


def _engine_reference(model):
    from passcheck.runtime.observe import RunFailed, observe

    with pytest.raises(RunFailed, match="SIGABRT"):
        observe(model, FEEDS, engine="reference")
    return True


@pytest.mark.parametrize(
    ("call", "holds"),
    [
        (_completed, lambda why: why and all("killed its process: SIGABRT" in v for v in why.values())),
        (_overflowed, lambda r: r == {}),
        (_engine_reference, lambda r: r is True),
    ],
    ids=["completion.with_subscopes", "oracles.overflow", "observe-engine-reference"],
)
def test_the_reference_evaluator_on_a_form_s_values_runs_in_the_block_s_worker(planted_worker, call, holds):
    """M409: the engine's completion of subgraph and function values (one reference-evaluator run per form whose
    annotations reach inside an If, a Loop or a function), the reference engine and the oracles' tie-breaks run the
    evaluator in the enclosing block's worker: a form that kills it costs that run (its values stay unobservable,
    with why), listed in the block's deaths, never the process of the front door (the hunt's, which ran it in its
    own process and died with it: the flake of ``test_a_hunt_survives_…`` in session 39)."""
    with isolated_tools.within(planted_worker) as scope:
        got = call(_plant_with_a_branch())
    assert holds(got), got
    assert scope.deaths == ["the reference evaluator killed its process: SIGABRT"], scope.deaths
