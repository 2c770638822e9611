"""M309–M311 (round 16e): bounded worker restarts, and the remaining front doors' tools on a form isolated.

``tests/hunt/planted_tool_death.py`` gives :func:`passcheck.runtime.isolated_tools.infer_job` and
:func:`passcheck.runtime.reference.run_reference` a body that calls ``os.abort()`` on a model of graph
``isolate36-plant``. M310: in a block, a form whose call killed the worker is not sent again, and after
:data:`~passcheck.runtime.isolated_tools.MAX_DEATHS_IN_A_ROW` deaths in a row nothing is sent until the block's next
drain (counted by the worker's launches: no restart). M309 / M311: ``mutations.mutants`` called with no block, and
:class:`~passcheck.reduce.pair.PairReducer` given a worker, run in a subprocess where the abort is planted in the
process itself too, so a tool call left in process ends it (returncode -6) and a routed one is reported.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.errors import WorkerDied
from passcheck.runtime import isolated_tools

PLANTED = Path(__file__).parents[1] / "hunt" / "planted_tool_death.py"
FEEDS = {"x": np.ones((2, 4), np.float32)}
ABORT = "onnx shape inference killed its process: SIGABRT"


def _plant(scale: float = 0.5, name: str = "isolate36-plant") -> onnx.ModelProto:
    """A model of the planted graph name (``scale`` makes distinct bytes); built here, the abort not imported."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    inits = [numpy_helper.from_array(np.full(4, scale, np.float32), "w")]
    nodes = [helper.make_node("Mul", ["x", "w"], ["m"], name="mul"), helper.make_node("Relu", ["m"], ["y"])]
    graph = helper.make_graph(nodes, name, [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture
def counted():
    """A worker with the abort preloaded, and the list its launches are appended to."""
    from passcheck.passes.isolation import IsolatedExecutor

    with IsolatedExecutor(timeout=60, preload=[PLANTED]) as ex:
        launches: list[int] = []
        launch = ex._launch

        def counting():
            launches.append(1)
            launch()

        ex._launch = counting
        yield ex, launches


def test_a_form_that_killed_the_worker_is_not_sent_again(counted):
    ex, launches = counted
    with isolated_tools.within(ex) as scope:
        with pytest.raises(WorkerDied, match="SIGABRT"):
            isolated_tools.infer_shapes(_plant())
        started = len(launches)
        with pytest.raises(WorkerDied, match="not run: this form killed the worker before"):
            isolated_tools.infer_shapes(_plant())
        rr = isolated_tools.run_reference(_plant(), FEEDS)  # another tool on it: its own first call
        again = isolated_tools.run_reference(_plant(), FEEDS)
        fine = isolated_tools.infer_shapes(_plant(name="fine"))  # an answer: the worker restarted for it
    assert rr.error == "the reference evaluator killed its process: SIGABRT"
    assert again.error.startswith("the reference evaluator not run: this form killed the worker before")
    assert [v.name for v in fine.graph.value_info] == ["m"]
    assert scope.deaths == [ABORT, rr.error] and len(scope.skipped) == 2
    assert len(launches) == started + 2, launches  # a worker for the evaluator and one for the fine model: none more


def test_after_deaths_in_a_row_nothing_is_sent_until_the_next_drain(counted):
    ex, launches = counted
    cap = isolated_tools.MAX_DEATHS_IN_A_ROW
    with isolated_tools.within(ex) as scope:
        for i in range(cap):
            with pytest.raises(WorkerDied, match="SIGABRT"):
                isolated_tools.infer_shapes(_plant(1.0 + i))
        before = len(launches)
        for m in (_plant(9.0), _plant(name="fine")):  # a new form, and one that would infer: neither sent
            with pytest.raises(WorkerDied, match=f"not run: the worker died {cap} times in a row"):
                isolated_tools.infer_shapes(m)
        assert len(launches) == before and len(scope.deaths) == cap and len(scope.drain_skipped()) == 2
        assert len(scope.drain()) == cap  # the next item: the run of deaths starts again
        fine = isolated_tools.infer_shapes(_plant(name="fine"))
    assert [v.name for v in fine.graph.value_info] == ["m"] and scope.skipped == []


def test_onnx_raising_ends_a_run_of_deaths(counted):
    ex, _ = counted
    bad = _plant(name="fine")
    bad.graph.initializer[0].CopyFrom(numpy_helper.from_array(np.ones(4, np.int64), "w"))  # Mul(float, int64)
    with isolated_tools.within(ex) as scope:
        for i in range(isolated_tools.MAX_DEATHS_IN_A_ROW - 1):
            with pytest.raises(WorkerDied):
                isolated_tools.infer_shapes(_plant(1.0 + i))
        with pytest.raises(Exception) as raised:  # noqa: PT011 - onnx's own error type, re-raised
            isolated_tools.infer_shapes(bad, check_type=True, strict_mode=True)
        assert not isinstance(raised.value, WorkerDied) and scope.streak == 0
        with pytest.raises(WorkerDied, match="SIGABRT"):  # sent again: the worker answered in between
            isolated_tools.infer_shapes(_plant(7.0))


def test_the_summary_counts_calls_not_made():
    from passcheck.hunt import noise

    line = noise.deaths_line([{"tool_deaths": ["a"], "tool_skips": ["s", "s"]}, {"tool_skips": ["s"]}])
    assert line.startswith("tool deaths on forms the hunt made: 1 in 1 items")
    assert line.endswith("; 3 calls not made, no restart, in 2 items (items' tool_skips)")
    alone = noise.deaths_line([{"tool_skips": ["s"]}])
    assert alone.endswith("; 1 calls not made, no restart, in 1 items (items' tool_skips)")


_PRELUDE = f"""
import json, os, runpy, sys, warnings
import numpy as np
from onnx import TensorProto, helper, numpy_helper
runpy.run_path({str(PLANTED)!r})  # the abort planted in this process too
from passcheck.passes import shared
from passcheck.passes.isolation import IsolatedExecutor
ex = IsolatedExecutor(timeout=60, preload=[{str(PLANTED)!r}])
shared._MINE[os.getpid()] = ex  # the process's shared worker, with the abort preloaded
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
w = numpy_helper.from_array(np.array([0.5, -1.0, 2.0, 0.25], np.float32), "w")
b = numpy_helper.from_array(np.array([0.1, -0.2, 0.3, 0.4], np.float32), "b")
nodes = [helper.make_node("Mul", ["x", "w"], ["m"], name="mul"), helper.make_node("Add", ["m", "b"], ["a"], name="add"),
         helper.make_node("Relu", ["a"], ["y"], name="relu")]
model = helper.make_model(helper.make_graph(nodes, "isolate36-plant", [x], [y], [w, b]),
                          opset_imports=[helper.make_opsetid("", 17)])
"""


def _run(body: str) -> dict:
    r = subprocess.run(
        [sys.executable, "-c", _PRELUDE + textwrap.dedent(body)], capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, (r.returncode, r.stderr[-3000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_library_s_mutants_run_the_rewrites_inference_in_the_shared_worker():
    """M309: ``mutants`` with no block: the rewrites' inference dies in the shared worker, not in the caller."""
    got = _run(
        """
        from passcheck.mutations.registry import mutants
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            made = mutants(model)
        said = [str(w.message) for w in said if w.category is RuntimeWarning]
        print(json.dumps({"forms": sorted(made), "said": said}))
        """
    )
    assert got["forms"], got  # rewrites that need no inference still give their forms
    said = [s for s in got["said"] if "onnx's tools died" in s]
    assert len(said) == 1 and "shared isolation worker" in said[0], got


def test_the_reducer_runs_its_candidates_tools_in_its_worker():
    """M311: :class:`PairReducer` given a worker: a candidate whose inference kills it is dropped and listed."""
    got = _run(
        """
        from passcheck.reduce.cut import key
        from passcheck.reduce.pair import PairReducer
        from passcheck.runtime import isolated_tools

        class Source:  # every candidate is inferred by the caller's code, as the rewrites do on a cut model
            keys = [key(n) for n in model.graph.node]
            def make(self, keep, edit=None):
                try:
                    isolated_tools.infer_shapes(model)
                except Exception:
                    pass
                return model, model
            def seeds(self):
                return []

        red = PairReducer(Source(), lambda a, b: True, ex).reduce(__import__("time").monotonic() + 60)
        print(json.dumps({"deaths": red.tool_deaths, "skips": len(red.tool_skips), "tests": red.tests}))
        """
    )
    assert got["deaths"] == [ABORT] and got["skips"] >= got["tests"] - 1 > 0, got  # one death, then no restart


def test_a_given_executor_holds_the_block_at_every_front_door(counted):
    """M311: ``executor_for(executor)`` (``Session(executor=…)``, the matrix worker) runs the tools in that worker."""
    from passcheck.passes.isolation import executor_for

    ex, _ = counted
    with executor_for(ex) as got:
        assert got is ex and isolated_tools.current() is not None and isolated_tools.current().worker is ex
    with executor_for(lambda *a: None):  # an in-process executor: no block
        assert isolated_tools.current() is None
