"""Kill a process together with every process it started, reparented ones included.

A pass's command may start children of its own (``sh -c 'tool & wait'``); killing only the
process passcheck started, or only its process group, leaves them running under init. On Linux
:func:`kill_tree` reads the process table from ``/proc``: it stops the process and all its
descendants (so none can fork or be reparented while the tree is read), re-reads until no new
descendant appears, then kills them all with SIGKILL. Elsewhere it kills the process group.

A process's children are read from ``/proc/PID/task/TID/children`` (one file per thread; the kernel's
proc(5) documents it as exact once the children are stopped, which :func:`kill_tree` ensures before its last
read), so a tree costs a few reads instead of one per process on the machine; a kernel built without
``CONFIG_PROC_CHILDREN`` has no such file and the whole process table is read instead.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from passcheck import interrupts

_PROC = Path("/proc")


def _parents() -> dict[int, int]:
    """pid → parent pid of every process visible in /proc."""
    out: dict[int, int] = {}
    for entry in os.scandir(_PROC):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_bytes()
        except OSError:  # exited while we read
            continue
        # "pid (comm) state ppid …": comm may contain spaces and parentheses, so split after the last ')'
        fields = stat[stat.rfind(b")") + 2 :].split()
        out[int(entry.name)] = int(fields[1])
    return out


def _children_files() -> bool:
    """Whether this kernel lists a thread's children in ``/proc/PID/task/TID/children``."""
    pid = os.getpid()
    return Path(_PROC, str(pid), "task", str(pid), "children").is_file()


def _children_of(pid: int) -> list[int]:
    """The children of process ``pid`` (those of every thread), from its ``children`` files; [] once it exited."""
    try:
        tasks = list(os.scandir(Path(_PROC, str(pid), "task")))
    except OSError:
        return []
    out: list[int] = []
    for task in tasks:
        try:
            out += [int(c) for c in Path(task.path, "children").read_bytes().split()]
        except OSError:  # the thread ended while we read
            continue
    return out


def descendants(pid: int) -> set[int]:
    """Every live process whose chain of parents reaches ``pid`` (Linux; empty elsewhere)."""
    if not _PROC.is_dir():
        return set()
    if _children_files():
        lookup = _children_of
    else:
        children: dict[int, list[int]] = {}
        for child, parent in _parents().items():
            children.setdefault(parent, []).append(child)
        lookup = lambda p: children.get(p, ())  # noqa: E731
    found: set[int] = set()
    todo = [pid]
    while todo:
        for c in lookup(todo.pop()):
            if c not in found:
                found.add(c)
                todo.append(c)
    return found


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_tree(pid: int | None, *, group: bool = True) -> None:
    """SIGKILL ``pid`` and all its descendants; with ``group``, also the process group ``pid`` leads.

    Safe to call on a process that already exited (nothing happens) and from any thread.
    """
    if pid is None or pid <= 0:
        return
    # Ctrl-C must not land between SIGSTOP and SIGKILL (stopped processes would be left behind)
    with interrupts.deferred():
        stopped: set[int] = {pid}
        try:
            if _PROC.is_dir():
                _signal(pid, signal.SIGSTOP)
                # stopped processes cannot fork: a few rounds reach a fixed point; it must hold for two rounds,
                # as a children file read while an unseen sibling exits may skip the entry after it
                quiet = 0
                while quiet < 2:
                    new = descendants(pid) - stopped
                    for p in new:
                        _signal(p, signal.SIGSTOP)
                    stopped |= new
                    quiet = 0 if new else quiet + 1
        finally:
            if group:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            for p in stopped:
                _signal(p, signal.SIGKILL)


def _own_children() -> set[int]:
    """This process's children (of every thread), from the children files or the process table."""
    if not _PROC.is_dir():
        return set()
    me = os.getpid()
    if _children_files():
        return set(_children_of(me))
    return {child for child, parent in _parents().items() if parent == me}


def popen(argv, **kwargs):
    """``subprocess.Popen(argv, **kwargs)`` that never loses a started child to an interrupt.

    A KeyboardInterrupt (Ctrl-C or SIGTERM, see :mod:`passcheck.interrupts`) raised inside ``Popen()``
    after the fork, while it waits for the exec or wraps the pipes, leaves a running child and no
    object to kill it by. Here every process this one started during the call (read from /proc,
    Linux) is then killed with all it started, and reaped, before the interrupt goes on.

    Raises:
        KeyboardInterrupt: as raised inside ``Popen()``.
        OSError: as ``subprocess.Popen`` raises it.
    """
    import subprocess

    before = _own_children()
    try:
        return subprocess.Popen(argv, **kwargs)
    except KeyboardInterrupt:
        with interrupts.deferred():
            for pid in _own_children() - before:
                kill_tree(pid, group=bool(kwargs.get("start_new_session")))
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:  # reaped already (subprocess's own bookkeeping)
                    pass
        raise


class Stopped(Exception):
    """:meth:`Children.popen` after :meth:`Children.stop`: no new process may start."""


class Children:
    """The processes a multi-threaded run started, so an interrupt can kill them all at once.

    :meth:`popen` and :meth:`stop` share a lock: a thread cannot start a process after the
    run was stopped (the race where a worker starts just as Ctrl-C arrives).
    """

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._live: set = set()
        self.stopped = False

    def popen(self, argv, **kwargs):
        """``subprocess.Popen(argv, start_new_session=True, **kwargs)``, tracked until :meth:`done`.

        Raises:
            Stopped: :meth:`stop` was called.
        """

        with self._lock:
            if self.stopped:
                raise Stopped
            proc = popen(argv, start_new_session=True, **kwargs)
            self._live.add(proc)
            return proc

    def done(self, proc) -> None:
        """Forget a process that was waited for."""
        with self._lock:
            self._live.discard(proc)

    def stop(self) -> None:
        """Refuse new processes and kill every tracked one with all it started."""
        with self._lock:
            self.stopped = True
            for proc in self._live:
                if proc.returncode is None:  # not reaped: its pid is still its own
                    kill_tree(proc.pid)
