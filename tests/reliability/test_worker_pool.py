"""One isolation worker kept across the in-process checks of a process (passcheck.execution.pool, M529).

Two ``check`` calls in one process run their passes in the same worker process (seen by its pid, written by a
planted pass); a pass that kills that worker is still a ``crashed`` cell and the next check runs in a new worker;
a block that leaves a reply owed (an interrupted wait) never hands that worker on, so no later job reads a stale
answer. The checks go through the CLI's own in-process entry (:func:`passcheck.cli.main`), as the tests that call
``check`` in-process do.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.cli import main
from passcheck.execution import pool
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from passcheck.passes.isolation import IsolatedExecutor, executor_for

#: The checkout's root: the planted passes below are this module's functions, run in the worker by name, so the
#: worker must import ``tests.reliability.test_worker_pool`` — under the ``pytest`` console script (CI) the root is
#: not on ``sys.path`` (``python -m pytest`` puts the working folder there), so each test puts it there first; a
#: worker's key includes ``sys.path``, so the workers these tests start have it.
ROOT = str(Path(__file__).resolve().parents[2])

#: The file the planted passes append their process id to (set for the whole test: the environment is part of a
#: pooled worker's key).
PIDS = "PASSCHECK_TEST_POOL_PIDS"


def _record_pid(model: onnx.ModelProto) -> onnx.ModelProto:
    """The identity pass, writing the pid of the process it runs in."""
    with open(os.environ[PIDS], "a") as f:
        f.write(f"{os.getpid()}\n")
    return model


def _abort_after_pid(model: onnx.ModelProto) -> onnx.ModelProto:
    """A pass that writes its pid and kills its process (SIGABRT)."""
    _record_pid(model)
    os.abort()


def _pid(model: onnx.ModelProto) -> int:
    return os.getpid()


def _wait_then_pid(model: onnx.ModelProto, folder: str) -> int:
    """Says it started (file ``started``), then answers -1 once the test releases it (file ``release``): the
    reply that arrives after the parent stopped waiting for it."""
    Path(folder, "started").write_text(str(os.getpid()))
    deadline = time.monotonic() + 120
    while not Path(folder, "release").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return -1


@pytest.fixture
def planted(tmp_path, monkeypatch):
    """A one-node model, the pid file, and the two planted passes registered; the pool emptied before and after."""
    monkeypatch.syspath_prepend(ROOT)
    monkeypatch.setenv(PIDS, str(tmp_path / "pids"))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
    path = tmp_path / "m.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    register_pass(FunctionAdapter("pooltest:record-pid", _record_pid))
    register_pass(FunctionAdapter("pooltest:abort", _abort_after_pid))
    pool.clear()
    try:
        yield path
    finally:
        unregister_pass("pooltest:record-pid")
        unregister_pass("pooltest:abort")
        pool.clear()


def _check(path: Path, pass_id: str, report: Path) -> tuple[int, list[dict]]:
    code = main(["check", str(path), "--pass", pass_id, "--json", str(report), "-q"])
    return code, json.loads(report.read_text())["results"]


def _pids(tmp_path: Path) -> list[int]:
    return [int(line) for line in (tmp_path / "pids").read_text().split()]


def test_two_checks_in_one_process_run_in_one_worker(planted, tmp_path):
    code1, first = _check(planted, "pooltest:record-pid", tmp_path / "r1.json")
    after_first = _pids(tmp_path)
    code2, second = _check(planted, "pooltest:record-pid", tmp_path / "r2.json")
    pids = _pids(tmp_path)
    assert code1 == code2 == 0 and first and second
    assert len(set(after_first)) == 1 and set(pids) == set(after_first)  # the second check: the same worker
    assert os.getpid() not in pids  # isolated: never this process
    assert pool.idle_count() == 1


def test_a_crash_in_a_pooled_worker_is_a_finding_and_the_next_check_gets_a_fresh_worker(planted, tmp_path):
    _check(planted, "pooltest:record-pid", tmp_path / "r1.json")
    (pooled,) = set(_pids(tmp_path))
    code, cells = _check(planted, "pooltest:abort", tmp_path / "r2.json")
    assert _pids(tmp_path)[-1] == pooled  # the crashing pass ran in the pooled worker …
    assert code == 1 and {c["status"] for c in cells if c["pass_id"] == "pooltest:abort"} == {"crashed"}  # … a cell
    assert any(f["pass_id"] == "pooltest:abort" for c in cells for f in c["findings"])
    _check(planted, "pooltest:record-pid", tmp_path / "r3.json")
    _check(planted, "pooltest:record-pid", tmp_path / "r4.json")
    fresh = _pids(tmp_path)[-1]
    assert fresh != pooled and fresh != os.getpid()
    assert set(_pids(tmp_path)[-2:]) == {fresh}  # the new worker is the one kept from then on


def test_a_worker_that_owes_a_reply_is_not_handed_on(tmp_path, monkeypatch):
    """An interrupt while a job runs, caught inside the block: the block ends normally, but the worker still owes
    that job's reply (sent once the test releases the job); the next block's job must get its own answer from a
    new worker, not the late one. The interrupt is raised from the parent's wait once the job said it started."""
    from passcheck.execution import worker as worker_module

    real_poll, armed = worker_module._poll, []

    def poll(conn, timeout):
        deadline = None if timeout is None else time.monotonic() + timeout
        while deadline is None or time.monotonic() < deadline:
            if real_poll(conn, 0.05):
                return True
            if armed and (tmp_path / "started").exists():
                armed.clear()
                (tmp_path / "release").touch()  # the job answers now, to a parent no longer waiting
                raise KeyboardInterrupt
        return False

    monkeypatch.setattr(worker_module, "_poll", poll)
    monkeypatch.syspath_prepend(ROOT)
    pool.clear()
    model = helper.make_model(helper.make_graph([], "g", [], []))
    try:
        with executor_for(None, timeout=120) as ex:
            first = ex.call(_pid, model)
            armed.append(True)
            with pytest.raises(KeyboardInterrupt):
                ex.call(_wait_then_pid, model, str(tmp_path))
        assert int((tmp_path / "started").read_text()) == first
        with executor_for(None, timeout=120) as again:
            assert again is ex  # the same executor object is kept …
            answer = again.call(_pid, model)
        assert answer not in (-1, first)  # … but not the worker that owed a reply
    finally:
        pool.clear()


def test_a_block_that_raises_closes_its_worker_and_other_keys_get_their_own(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(ROOT)
    pool.clear()
    model = helper.make_model(helper.make_graph([], "g", [], []))
    try:
        with pytest.raises(RuntimeError), executor_for(None, timeout=60) as ex:
            ex.call(_pid, model)
            raise RuntimeError("the block failed")
        assert pool.idle_count() == 0 and ex.pid is None  # closed, not kept
        with executor_for(None, timeout=60) as kept:
            kept.call(_pid, model)
        monkeypatch.setenv("PASSCHECK_TEST_POOL_KEY", "another")  # a job reads the environment it started with
        with executor_for(None, timeout=60) as other:
            assert other is not kept
        assert pool.idle_count() == 2
        assert isinstance(kept, IsolatedExecutor)
    finally:
        pool.clear()


def test_close_workers_ends_the_kept_worker_and_the_next_check_starts_a_new_one(planted, tmp_path):
    import passcheck

    _check(planted, "pooltest:record-pid", tmp_path / "r1.json")
    (kept,) = set(_pids(tmp_path))
    assert pool.idle_count() == 1
    assert passcheck.close_workers() == 1 and pool.idle_count() == 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the worker process is gone (reaped by its executor's close)
        try:
            os.kill(kept, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"worker {kept} still alive after close_workers()")
    assert passcheck.close_workers() == 0
    _check(planted, "pooltest:record-pid", tmp_path / "r2.json")
    assert _pids(tmp_path)[-1] != kept
