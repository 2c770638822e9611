"""Planted passes that segfault, abort, hang or allocate without bound cost exactly their own
cell; the rest of the report is complete (issue 8.2). Run through the real CLI in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.passes import FunctionAdapter
from passcheck.passes.isolation import IsolatedExecutor
from tests._inproc import cli

PLANTED = textwrap.dedent('''
    """Planted passes (tests/reliability): each misbehaves in one way; planted:ok is the identity."""
    import ctypes
    import os
    import time

    from passcheck.cases import Case, Form, register
    import numpy as np

    from passcheck.cases.builders import FLOAT, model, node, tensor, vi
    from passcheck.passes import FunctionAdapter, register_pass


    def ok(m):
        return m


    def segv(m):
        print("about to dereference NULL", flush=True)
        ctypes.string_at(0)


    def abort(m):
        os.abort()


    def hang(m):
        if os.environ.get("PLANTED_HANG_MARK"):  # tells a test the pass is running now
            open(os.environ["PLANTED_HANG_MARK"], "a").close()
        time.sleep(3600)


    def nap(m):
        time.sleep(0.5)
        return m


    def hog(m):
        # 16 GiB of address space in 256 MiB blocks, never touched: only the memory cap stops it,
        # and it is stopped at once however loaded the machine is (no page to fault in)
        chunks = []
        for _ in range(64):
            chunks.append(np.empty(256 << 20, np.uint8))
        return m


    for _name, _fn in [("ok", ok), ("segv", segv), ("abort", abort), ("hang", hang), ("hog", hog), ("nap", nap)]:
        register_pass(FunctionAdapter(f"planted:{_name}", _fn))

    register(Case(
        id="planted/relu", doc="one Relu", opset=18,
        forms={
            "common": Form(lambda: model([node("Relu", ["x"], ["y"], name="relu")], [vi("x", FLOAT, ["N", 3])],
                                         [vi("y", FLOAT, ["N", 3])], opset=18)),
            "max": Form(lambda: model([node("Max", ["x", "zero"], ["y"], name="max")], [vi("x", FLOAT, ["N", 3])],
                                      [vi("y", FLOAT, ["N", 3])],
                                      initializers=[tensor("zero", np.zeros((), np.float32))], opset=18)),
        },
    ))
''')
PASSES = ["planted:ok", "planted:segv", "planted:abort", "planted:hang", "planted:hog", "onnx:infer-shapes"]


def _run(tmp: Path, *extra: str) -> subprocess.CompletedProcess:
    (tmp / "planted.py").write_text(PLANTED)
    argv = [
        sys.executable,
        "-m",
        "passcheck",
        "run",
        "--cases-from",
        str(tmp / "planted.py"),
        "--case",
        "planted/*",
        "--timeout",
        "8",
        "--memory-limit",
        "2048",
        "-q",
        *extra,
    ]
    for p in PASSES:
        argv += ["--pass", p]
    return subprocess.run(argv, capture_output=True, text=True, cwd=tmp, timeout=240)


def test_each_planted_failure_costs_only_its_cell(tmp_path):
    proc = _run(tmp_path, "--json", str(tmp_path / "r.json"), "--stream", str(tmp_path / "s.jsonl"))
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stderr  # the failures are findings
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    assert sorted((c["pass_id"], c["form"]) for c in results) == sorted(
        (p, f) for p in PASSES + ["input"] for f in ("common", "max")
    )
    cells = {c["pass_id"]: c for c in results if c["form"] == "max"}
    assert cells["planted:ok"]["status"] == "unchanged" and cells["planted:ok"]["verdict"] == "ok"
    assert cells["onnx:infer-shapes"]["status"] in ("changed", "unchanged")
    assert cells["planted:segv"]["status"] == "crashed"
    assert "SIGSEGV" in cells["planted:segv"]["error"] and "about to dereference NULL" in cells["planted:segv"]["error"]
    assert cells["planted:abort"]["status"] == "crashed" and "SIGABRT" in cells["planted:abort"]["error"]
    assert cells["planted:hang"]["status"] == "timeout"
    assert cells["planted:hog"]["status"] == "out-of-memory"
    for pid in ("planted:segv", "planted:abort", "planted:hang", "planted:hog"):
        assert cells[pid]["findings"], pid
    streamed = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert [r["type"] for r in streamed[:2]] == ["header", "environment"]
    assert len([r for r in streamed if r["type"] == "cell"]) == len(results)


def _relu() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])
    m = helper.make_model(
        helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
        opset_imports=[helper.make_opsetid("", 18)],
    )
    m.ir_version = 8
    return m


def test_unpicklable_callable_runs_in_a_forked_child(tmp_path):
    import os

    parent = os.getpid()
    with IsolatedExecutor(timeout=30, memory_mb=None) as ex:
        seen = FunctionAdapter(
            "t:pid", lambda m: (m.graph.node[0].name.__class__, setattr(m.graph, "name", str(os.getpid())), m)[-1]
        )
        out = ex(seen, _relu(), tmp_path)
        assert out.status == "changed" and out.model.graph.name != str(parent)
        died = ex(FunctionAdapter("t:exit", lambda m: os._exit(7)), _relu(), tmp_path)
        assert died.status == "crashed" and "exit code 7" in died.error


def test_a_pass_of_a_preloaded_module_runs_in_the_persistent_worker(tmp_path):
    """A ``--cases-from`` module's pass pickles by reference (its module name lies under a package passcheck
    registers) and runs in the persistent worker that preloads the same file, every cell in the same process,
    not in a fork per cell (M165, round 12s)."""
    import os
    import pickle

    from passcheck.user_modules import load_file

    module = tmp_path / "pid_pass.py"
    module.write_text(
        textwrap.dedent(
            """
            import os

            def pid(m):
                m.graph.name = str(os.getpid())
                return m
            """
        )
    )
    load_file(module)
    fn = next(m for n, m in sys.modules.items() if n.startswith("passcheck_user_cases.pid_pass_")).pid
    assert pickle.loads(pickle.dumps(fn)) is fn
    with IsolatedExecutor(timeout=60, memory_mb=None, preload=[module]) as ex:
        outs = [ex(FunctionAdapter("t:pid-preloaded", fn), _relu(), tmp_path) for _ in range(2)]
        assert [o.status for o in outs] == ["changed", "changed"] and not ex._forked
        assert {o.model.graph.name for o in outs} == {str(ex._proc.pid)} != {str(os.getpid())}


def test_worker_is_reused_and_replaced_after_a_crash(tmp_path):
    from passcheck.passes import get_pass

    with IsolatedExecutor(timeout=60, memory_mb=None) as ex:
        a = ex(get_pass("onnx:infer-shapes"), _relu(), tmp_path)
        pid = ex._proc.pid
        b = ex(get_pass("onnx:infer-shapes"), _relu(), tmp_path)
        assert ex._proc.pid == pid and a.status == b.status and a.status in ("changed", "unchanged")
        ex._proc.kill()
        c = ex(get_pass("onnx:infer-shapes"), _relu(), tmp_path)
        assert c.status == a.status and ex._proc.pid != pid


@pytest.mark.parametrize("flag", [["--timeout", "0"], ["--memory-limit", "-3"], ["--timeout", "soon"]])
def test_bad_limits_are_usage_errors(tmp_path, flag):
    proc = cli("run", "--case", "x", *flag, cwd=tmp_path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "positive number" in proc.stderr


def test_killing_passcheck_leaves_no_pass_running(tmp_path):
    """passcheck killed with SIGKILL while a pass hangs: the pass's worker dies with it (it leads
    its own process group, so only its parent-death signal can reach it)."""
    import os
    import signal
    import time

    (tmp_path / "planted.py").write_text(PLANTED)
    marker = tmp_path / "hang-started"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "passcheck",
            "run",
            "--cases-from",
            str(tmp_path / "planted.py"),
            "--case",
            "planted/*",
            "--pass",
            "planted:hang",
            "--timeout",
            "600",
        ],
        env={**os.environ, "PLANTED_HANG_MARK": str(marker)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    deadline = time.monotonic() + 300
    while not marker.exists():  # the hanging pass is running in its worker now
        assert proc.poll() is None and time.monotonic() < deadline, "the planted hang never started"
        time.sleep(0.1)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)

    def live_here(pid: str) -> bool:
        try:
            return (
                os.path.realpath(f"/proc/{pid}/cwd") == str(tmp_path.resolve())
                and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] != "Z"
            )
        except OSError:  # ended meanwhile
            return False

    def mine() -> list[str]:
        left = subprocess.run(["pgrep", "-f", "spawn_main|passcheck"], capture_output=True, text=True).stdout.split()
        return [p for p in left if live_here(p)]

    deadline = time.monotonic() + 60  # the kernel delivers the parent-death signal; zombies are reaped by init
    while mine() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not mine(), f"processes left running after passcheck was killed: {mine()}"


def test_a_worker_that_never_started_is_stopped_safely(tmp_path, monkeypatch):
    """Starting the worker fails (no process, or Ctrl-C during the start): the caller sees that
    error, not an AssertionError from stopping a process that never started; the next job starts one.
    Both start paths fail: the template's fork (``os.fork`` in the template process) and the
    interpreter started instead."""
    from passcheck.execution import child as _worker_process
    from passcheck.execution import template
    from passcheck.passes import get_pass

    real, real_spawn = _worker_process.subprocess.Popen, template.spawn

    def no_process(*a, **kw):
        raise OSError(11, "Resource temporarily unavailable")

    with IsolatedExecutor(timeout=60, memory_mb=None) as ex:
        monkeypatch.setattr(_worker_process.subprocess, "Popen", no_process)
        monkeypatch.setattr(template, "spawn", no_process)
        with pytest.raises(OSError, match="temporarily unavailable"):
            ex(get_pass("onnx:infer-shapes"), _relu(), tmp_path)
        ex._stop()  # what close() does; used to assert 'can only join a started process'
        monkeypatch.setattr(_worker_process.subprocess, "Popen", real)
        monkeypatch.setattr(template, "spawn", real_spawn)
        assert ex(get_pass("onnx:infer-shapes"), _relu(), tmp_path).status in ("changed", "unchanged")
    ex2 = IsolatedExecutor(timeout=60, memory_mb=None)
    monkeypatch.setattr(_worker_process.subprocess, "Popen", no_process)
    monkeypatch.setattr(template, "spawn", no_process)
    with pytest.raises(OSError):
        ex2(get_pass("onnx:infer-shapes"), _relu(), tmp_path)
    ex2.close()


def _raises(text: str):
    def run(m):
        raise RuntimeError(text)

    return run


def test_a_pass_raising_in_the_worker_is_crashed_and_only_an_allocation_failure_reads_out_of_memory(tmp_path):
    """The worker maps a crashed outcome to out-of-memory only when its error names a failed
    allocation (``_PassJob``: ``status == "crashed" and error and any(marker in error)``)."""
    with IsolatedExecutor(timeout=60, memory_mb=None) as ex:
        crashed = ex(FunctionAdapter("t:raise", _raises("axis 4 is out of range")), _relu(), tmp_path)
        assert crashed.status == "crashed" and "axis 4 is out of range" in crashed.error, crashed
        starved = ex(FunctionAdapter("t:alloc", _raises("std::bad_alloc")), _relu(), tmp_path)
        assert starved.status == "out-of-memory" and "bad_alloc" in starved.error, starved


BATCHED = textwrap.dedent('''
    """Passes for a batch (tests/reliability): each says it ran; segv then kills its worker."""
    import ctypes

    from passcheck.passes import FunctionAdapter


    def first(m):
        print("first ran", flush=True)
        m.graph.name = "first"
        return m


    def segv(m):
        print("segv ran", flush=True)
        ctypes.string_at(0)


    def last(m):
        print("last ran", flush=True)
        m.graph.name = "last"
        return m


    FIRST, SEGV, LAST = (FunctionAdapter(f"batched:{f.__name__}", f) for f in (first, segv, last))
''')


def test_a_batch_of_passes_answers_each_and_stops_at_the_one_that_kills_the_worker(tmp_path):
    """:meth:`IsolatedExecutor.run_passes`: one round trip, the outcome each pass gets alone; a pass
    that kills the worker is ``crashed`` with its own output only, the passes after it are left to
    the caller (None), and the next job gets a new worker."""
    import importlib

    (tmp_path / "batched_passes.py").write_text(BATCHED)
    sys.path.insert(0, str(tmp_path))  # importable by name in the worker too (it gets this sys.path)
    mod = importlib.import_module("batched_passes")
    dirs = [tmp_path / str(i) for i in range(3)]
    for d in dirs:
        d.mkdir()
    try:
        with IsolatedExecutor(timeout=60, memory_mb=None) as ex:
            ok = ex.run_passes([mod.FIRST, mod.LAST], _relu(), dirs[:2])
            assert [o.status for o in ok] == ["changed", "changed"]
            assert [o.model.graph.name for o in ok] == ["first", "last"]
            pid = ex._proc.pid
            first, crashed, rest = ex.run_passes([mod.FIRST, mod.SEGV, mod.LAST], _relu(), dirs)
            assert first.status == "changed" and first.model.graph.name == "first"
            assert crashed.status == "crashed" and "SIGSEGV" in crashed.error
            assert "segv ran" in crashed.error and "first ran" not in crashed.error
            assert rest is None
            again = ex(mod.LAST, _relu(), dirs[2])
            assert again.status == "changed" and ex._proc.pid != pid
    finally:
        sys.modules.pop("batched_passes", None)
        sys.path.remove(str(tmp_path))


def test_start_begins_the_worker_before_the_first_job_which_waits_for_it(tmp_path):
    """:meth:`Worker.start` launches the worker at once (its start-up overlaps the caller's own),
    the first job runs in that process; a worker that could not start says why at the first job.
    (With the process's worker template running: with none, start() starts the template and the
    first job forks, tests/reliability/test_template.py.)"""
    from passcheck.errors import WorkerStartError
    from passcheck.execution import template
    from passcheck.passes import get_pass

    template.prestart()
    with IsolatedExecutor(timeout=60, memory_mb=None) as ex:
        ex.start()
        assert ex._proc is not None and ex._proc.is_alive()
        pid = ex._proc.pid
        ex.start()  # starting: nothing more is started
        assert ex._proc.pid == pid
        assert ex(get_pass("onnx:infer-shapes"), _relu(), tmp_path).status in ("changed", "unchanged")
        assert ex._proc.pid == pid
    with IsolatedExecutor(timeout=60, memory_mb=None, preload=[tmp_path / "missing.py"]) as ex:
        ex.start()
        ex._proc.join(60)  # it has exited by the first job: its reason is still read
        with pytest.raises(WorkerStartError, match="missing.py"):
            ex(get_pass("onnx:infer-shapes"), _relu(), tmp_path)


def test_the_engine_runs_the_passes_of_a_small_form_in_one_round_trip(tmp_path):
    """:func:`passcheck.engine.evaluate` asks the isolation worker for every pass of a form at once
    (one :meth:`~passcheck.execution.Worker.run_batch` per form), asks the checker about a model in
    the job that runs it (no call of its own), and reports what one call per pass reports."""
    from passcheck.engine import Subject, evaluate

    subject = Subject("t/relu", {"common": _relu(), "again": _relu()}, [{"N": 2}, {"N": 3}])
    passes = ["onnx:infer-shapes", "ort:basic", "onnxscript:optimize"]
    with IsolatedExecutor(timeout=120, memory_mb=None) as ex:
        batches: list[int] = []
        calls: list[str] = []
        run_batch, call = ex.run_batch, ex.call
        ex.run_batch = lambda blob, data, count: batches.append(count) or run_batch(blob, data, count)
        ex.call = lambda fn, *a, **kw: calls.append(fn.__name__) or call(fn, *a, **kw)
        batched = evaluate(subject, passes, executor=ex)
    with IsolatedExecutor(timeout=120, memory_mb=None) as ex:
        ex.run_passes = None  # no batching: one round trip per pass
        alone = evaluate(subject, passes, executor=ex)
    assert batches == [3, 3]
    assert calls == []
    assert [(c.form, c.pass_id, c.status, c.verdict) for c in batched] == [
        (c.form, c.pass_id, c.status, c.verdict) for c in alone
    ]


def _dies_after(text: str):
    def run(m):
        import os

        os.write(2, f"terminate called after throwing an instance of '{text}'\n".encode())
        os.abort()

    return run


def test_a_pass_that_kills_its_worker_reads_out_of_memory_only_when_its_last_words_name_a_failed_allocation(tmp_path):
    """``IsolatedExecutor._outcome`` of a dead worker: crashed, unless the output it left names a failed
    allocation (a C++ ``std::bad_alloc`` abort): then out-of-memory, with the memory limit said."""
    with IsolatedExecutor(timeout=60, memory_mb=None) as ex:
        starved = ex(FunctionAdapter("t:bad-alloc", _dies_after("std::bad_alloc")), _relu(), tmp_path)
        assert starved.status == "out-of-memory" and "allocation failed under the" in starved.error, starved
        crashed = ex(FunctionAdapter("t:logic", _dies_after("std::logic_error")), _relu(), tmp_path)
        assert crashed.status == "crashed" and "SIGABRT" in crashed.error, crashed
