"""passcheck._procs on real process trees: a tree's processes are read from the kernel's per-thread
``children`` files (proc(5)), the same set the whole process table gives, and :func:`kill_tree` kills all of it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from passcheck import _procs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _tree(tmp_path: Path) -> subprocess.Popen:
    """``sh`` → (``sh`` → ``sleep``, ``sleep``): three levels, four processes, the inner ``sh`` and its ``sleep``
    in a session of their own (a process group kill does not reach them); returns once the innermost
    ``sleep`` and the outer one were started (each shell creates a file, itself, once it forked its ``sleep``)."""
    ready, ready2 = tmp_path / "ready", tmp_path / "ready2"
    inner = f"sleep 120 & : > {ready}; wait"
    proc = subprocess.Popen(
        ["sh", "-c", f"setsid sh -c '{inner}' & sleep 120 & : > {ready2}; wait"], start_new_session=True
    )
    deadline = time.monotonic() + 60
    while not (ready.exists() and ready2.exists()):
        assert time.monotonic() < deadline, "the tree did not start within 60 s"
        assert proc.poll() is None
        os.sched_yield()
    return proc


def _by_table(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for child, parent in _procs._parents().items():
        children.setdefault(parent, []).append(child)
    found, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), ()):
            found.add(c)
            todo.append(c)
    return found


def test_a_tree_read_from_children_files_is_the_one_the_process_table_gives(tmp_path, monkeypatch):
    assert _procs._children_files()  # Linux kernels passcheck runs on are built with CONFIG_PROC_CHILDREN
    proc = _tree(tmp_path)
    try:
        expected = _by_table(proc.pid)
        assert len(expected) == 3
        with monkeypatch.context() as m:
            m.setattr(_procs, "_parents", lambda: pytest.fail("the whole process table was read"))
            assert _procs.descendants(proc.pid) == expected
        monkeypatch.setattr(_procs, "_children_files", lambda: False)  # a kernel without the files
        assert _procs.descendants(proc.pid) == expected
    finally:
        _procs.kill_tree(proc.pid)
        proc.wait(30)


@pytest.mark.parametrize("children_files", [True, False])
def test_kill_tree_kills_every_level(tmp_path, monkeypatch, children_files):
    monkeypatch.setattr(_procs, "_children_files", lambda: children_files)
    proc = _tree(tmp_path)
    below = _by_table(proc.pid)
    try:
        assert len(below) == 3
        _procs.kill_tree(proc.pid)
        assert proc.wait(30) == -9
        deadline = time.monotonic() + 30  # reparented to init, each is reaped there once killed
        while alive := {p for p in below if b") Z" not in _stat(p)}:
            assert time.monotonic() < deadline, f"still running after kill_tree: {alive}"
            os.sched_yield()
        assert _procs.descendants(proc.pid) == set()
    finally:  # nothing left running when an assertion failed
        for p in below | {proc.pid}:
            try:
                os.kill(p, 9)
            except ProcessLookupError:
                pass
        proc.wait(30)


def _stat(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return b") Z"


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


def _interrupt_after_fork(monkeypatch) -> dict:
    """Make the next ``Popen()`` raise KeyboardInterrupt once its child was started (as a Ctrl-C landing
    while ``Popen`` waits for the exec on a loaded machine); the child's pid is put in the returned dict."""
    started: dict = {}
    real = subprocess.Popen._execute_child

    def interrupted(self, *args, **kwargs):
        real(self, *args, **kwargs)
        started["pid"] = self.pid
        raise KeyboardInterrupt

    monkeypatch.setattr(subprocess.Popen, "_execute_child", interrupted)
    return started


@pytest.mark.parametrize("own_session", [True, False])
def test_an_interrupt_inside_popen_leaves_no_child(monkeypatch, own_session):
    started = _interrupt_after_fork(monkeypatch)
    try:
        with pytest.raises(KeyboardInterrupt):
            _procs.popen(["sleep", "120"], start_new_session=own_session)
        monkeypatch.undo()
        assert not _alive(started["pid"]), "the child started inside the interrupted Popen() is still running"
    finally:
        if started.get("pid") and _alive(started["pid"]):
            _procs.kill_tree(started["pid"], group=False)


def test_an_interrupt_while_a_cmd_pass_starts_leaves_no_child(tmp_path, monkeypatch):
    """The ``cmd:`` pass in passcheck's own process (``--no-isolation``, the API) starts its command
    through :func:`passcheck._procs.popen`: a Ctrl-C inside the start kills the command."""
    import onnx
    from onnx import TensorProto, helper

    from passcheck.passes.command import CommandAdapter

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    model = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]))
    adapter = CommandAdapter("sh -c 'sleep 120' {in} {out}")
    started = _interrupt_after_fork(monkeypatch)
    try:
        with pytest.raises(KeyboardInterrupt):
            adapter.apply(onnx.ModelProto.FromString(model.SerializeToString()), tmp_path)
        monkeypatch.undo()
        assert not _alive(started["pid"]), "the command started inside the interrupted Popen() is still running"
    finally:
        if started.get("pid") and _alive(started["pid"]):
            _procs.kill_tree(started["pid"], group=False)
