"""Isolation workers forked from the pre-imported template (:mod:`passcheck.execution.template`).

A worker is a fork of one template process per passcheck process; it must still behave as a fresh
interpreter started by the caller would: the caller's environment variables, working directory and
``sys.path``, killed with its parent, replaced after a crash, and started anew when the template
itself is gone.
"""

from __future__ import annotations

import importlib
import json
import signal

import pytest
from onnx import TensorProto, helper

from passcheck.execution import Worker, template

PROBE = """
import os, sys

def where(model):
    return {"pid": os.getpid(), "ppid": os.getppid(), "cwd": os.getcwd(),
            "probe": os.environ.get("PASSCHECK_PROBE"), "path": list(sys.path)}
"""


def _relu():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    return helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]))


def _probe(tmp_path, monkeypatch, name: str):
    """``where`` of a module ``name`` on ``sys.path`` (the worker imports it by name from the caller's path)."""
    (tmp_path / f"{name}.py").write_text(PROBE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module(name).where


def test_workers_are_forks_of_one_template_with_the_callers_environment(tmp_path, monkeypatch):
    where = _probe(tmp_path, monkeypatch, "template_probe_env")
    monkeypatch.setenv("PASSCHECK_PROBE", "one")
    with Worker(timeout=120, memory_mb=None) as w:
        a = w.call(where, _relu())
        w._proc.kill()  # the next job's worker is forked again
        b = w.call(where, _relu())
    forker = template._TEMPLATE._proc.pid
    assert a["ppid"] == b["ppid"] == forker and a["pid"] != b["pid"]
    assert a["probe"] == "one" and a["cwd"] == b["cwd"]

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the same template forks it, in the caller's folder now
    with Worker(timeout=120, memory_mb=None) as w:
        c = w.call(where, _relu())
    assert c["cwd"] == str(elsewhere) and c["ppid"] == forker

    monkeypatch.setenv("PASSCHECK_PROBE", "two")  # onnx may have read the old value at import: a new template
    with Worker(timeout=120, memory_mb=None) as w:
        d = w.call(where, _relu())
    assert d["probe"] == "two" and d["ppid"] != forker and d["ppid"] == template._TEMPLATE._proc.pid

    monkeypatch.syspath_prepend(str(elsewhere))  # where the worker's imports resolve: a new template again
    with Worker(timeout=120, memory_mb=None) as w:
        e = w.call(where, _relu())
    assert e["path"][0] == str(elsewhere) and e["ppid"] not in (forker, d["ppid"])


def test_the_template_outlives_pytests_per_test_variable(tmp_path, monkeypatch):
    """pytest sets ``PYTEST_CURRENT_TEST`` anew at each phase of each test: tests calling passcheck in-process
    (passcheck's own, and users' through its pytest plugin) share one template instead of starting one each."""
    where = _probe(tmp_path, monkeypatch, "template_probe_pytest")
    with Worker(timeout=120, memory_mb=None) as w:
        a = w.call(where, _relu())
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "tests/elsewhere.py::test_other (call)")
    with Worker(timeout=120, memory_mb=None) as w:
        b = w.call(where, _relu())
    assert a["ppid"] == b["ppid"] == template._TEMPLATE._proc.pid and a["pid"] != b["pid"]


def test_a_worker_dies_with_its_template_and_the_next_is_forked_from_a_new_one(tmp_path, monkeypatch):
    where = _probe(tmp_path, monkeypatch, "template_probe_death")
    with Worker(timeout=120, memory_mb=None) as w:
        first = w.call(where, _relu())
        old = template._TEMPLATE
        assert first["ppid"] == old._proc.pid
        old._proc.kill()
        w._proc.join(60)  # SIGKILL from its parent's death (PR_SET_PDEATHSIG), read without a waiter
        assert w._proc.exitcode == -signal.SIGKILL
        again = w.call(where, _relu())
    assert template._TEMPLATE is not old and again["ppid"] == template._TEMPLATE._proc.pid


def test_an_interrupt_amid_a_fork_request_leaves_no_answer_for_the_next_worker(tmp_path, monkeypatch):
    """Ctrl-C while the template is asked for a fork: its answer (that fork's pid) must not be
    taken as the next request's, or the next worker's pid (what is killed and waited for) is wrong."""
    where = _probe(tmp_path, monkeypatch, "template_probe_interrupt")
    with Worker(timeout=120, memory_mb=None) as w:
        w.call(where, _relu())  # the template runs
    conn = template._TEMPLATE._proc.conn

    def interrupted(*_):
        raise KeyboardInterrupt

    conn.poll = interrupted
    try:
        with Worker(timeout=120, memory_mb=None) as w, pytest.raises(KeyboardInterrupt):
            w.call(where, _relu())
    finally:
        del conn.poll
    with Worker(timeout=120, memory_mb=None) as w:
        got = w.call(where, _relu())
        assert got["pid"] == w._proc.pid


def test_start_leaves_the_fork_to_the_first_job_while_a_new_template_imports(tmp_path, monkeypatch):
    """With no template for this environment, :meth:`Worker.start` starts one and returns: a fork
    asked for now would wait there for the template's imports (onnx), which instead overlap what
    the caller does before its first job; the first job forks. With the template running, start()
    forks at once (the worker's own start-up then overlaps the caller's)."""
    where = _probe(tmp_path, monkeypatch, "template_probe_start")
    monkeypatch.syspath_prepend(str(tmp_path / "no-template-has-this-path"))  # a key no template was started with
    with Worker(timeout=120, memory_mb=None) as w:
        w.start()
        started = template._TEMPLATE
        assert w._proc is None and started.key == template._key() and started.alive()
        first = w.call(where, _relu())
    assert first["ppid"] == started._proc.pid
    with Worker(timeout=120, memory_mb=None) as w:
        w.start()
        assert w._proc is not None and template._TEMPLATE is started
        assert w.call(where, _relu())["pid"] == w._proc.pid


WARMED = """
import os

PID = os.getpid()
"""

SEEN = """
import sys

def seen(model):
    module = sys.modules.get("template_warmed_tool")
    return None if module is None else module.PID
"""


def test_a_new_template_imports_the_modules_its_worker_warms(tmp_path, monkeypatch):
    """``Worker(warm=...)``: the template its :meth:`~Worker.start` starts imports those modules
    before it forks, so the worker's jobs find them imported (by the template: the module's PID),
    and times each import as a job (``$PASSCHECK_TIMINGS``: what the first job would have paid);
    without them the worker imports only what its jobs ask for."""
    (tmp_path / "template_warmed_tool.py").write_text(WARMED)
    (tmp_path / "template_probe_warm.py").write_text(SEEN)
    monkeypatch.syspath_prepend(str(tmp_path))
    timings = tmp_path / "timings.jsonl"
    monkeypatch.setenv("PASSCHECK_TIMINGS", str(timings))
    seen = importlib.import_module("template_probe_warm").seen
    with Worker(timeout=120, memory_mb=None, warm=("template_warmed_tool",)) as w:
        w.start()
        by = w.call(seen, _relu())
    assert by == template._TEMPLATE._proc.pid
    lines = [json.loads(line) for line in timings.read_text().splitlines()]
    assert [(x["job"], x["pid"]) for x in lines if x["job"].startswith("import ")] == [
        ("import template_warmed_tool", by)
    ]
    monkeypatch.syspath_prepend(str(tmp_path / "cold"))  # a new template, not warmed
    with Worker(timeout=120, memory_mb=None) as w:
        w.start()
        assert w.call(seen, _relu()) is None
