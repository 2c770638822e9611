"""A pre-imported template process that forks isolation workers: a worker start is a fork, not an
interpreter and its imports.

Every fresh worker interpreter imports onnx (about 0.45 s of CPU, most of it ml_dtypes registering
its dtypes' ufunc loops with numpy) before its first job. The template is one such interpreter per
passcheck process, started like a worker (``python -c``, :mod:`passcheck.execution.child`: never
the caller's ``__main__``, no inherited threads), that imports onnx once and then only forks: each
worker (:class:`Forked`) is a fork of it, so a worker replaced after a crash, a timeout or an
out-of-memory job, and the worker of every later session in the same process, starts in
milliseconds. Isolation is the same as a worker interpreter's: the fork calls
:func:`passcheck.execution.process.limit` (its own process group, memory cap, SIGKILL when its
parent, the template, dies), runs in the caller's working directory and holds none of the
template's sockets.

The template imports onnx and numpy, not onnxruntime (whose import starts a thread; forking a
process with threads of its own is what the template avoids); a worker imports onnxruntime after
the fork (~0.02 s). A template started by :func:`prestart` also imports the thread-free tool modules
its caller names (``warm``: onnxscript for the onnxscript passes, ~0.6 s of CPU after onnx), so
that import overlaps the caller's start-up instead of the first such pass; a worker's
:meth:`~passcheck.execution.Worker.start` only starts the template when there is none and leaves
the fork to the first job, as a fork waits for the template's imports.

Exit status: the template reaps its forks and writes each one's exit code (negative: the signal,
as :class:`multiprocessing.Process` reports it) to a pipe the caller holds for that worker.
The template exits when the caller's end of its socket closes (the caller's process ended), its
forks then get SIGKILL (``PR_SET_PDEATHSIG``). The template is replaced when the caller's
environment variables (but ``PYTEST_CURRENT_TEST``, which pytest rewrites at every test phase) or
``sys.path`` differ from those it was started with (what onnx read at import), and after it died;
when it cannot start, :func:`spawn` raises and the caller starts a worker interpreter instead.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Sequence
from multiprocessing import reduction
from multiprocessing.connection import Connection, wait
from typing import Any

from passcheck import interrupts
from passcheck.execution import process

#: What the template imports before it forks (each tolerated missing: a worker reports it then).
PRELOAD = ("numpy", "onnx")
#: Seconds the template may take to import :data:`PRELOAD` and answer its first fork.
_START_TIMEOUT = 120.0
_STATUS = struct.Struct("i")


class NoFork(OSError):
    """The template is alive but ``fork()`` failed there (errno, text)."""


class Forked:
    """A worker forked by the template: the process interface of
    :class:`~passcheck.execution.child.WorkerProcess` (``pid``, ``exitcode``, ``is_alive``, ``join``,
    ``kill``, ``conn``). ``exitcode`` is read from the pipe the template writes it to; when the
    template died first, the worker died with it (SIGKILL)."""

    def __init__(self, pid: int, conn: Connection, status_fd: int):
        self.pid, self.conn, self._status_fd = pid, conn, status_fd
        self._code: int | None = None

    @property
    def exitcode(self) -> int | None:
        self._read(0)
        return self._code

    def is_alive(self) -> bool:
        return self.exitcode is None

    def join(self, timeout: float | None = None) -> None:
        self._read(timeout)

    def kill(self) -> None:
        if self.exitcode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.pid, signal.SIGKILL)

    def _read(self, timeout: float | None) -> None:
        if self._code is not None or self._status_fd < 0:
            return
        if not select.select([self._status_fd], [], [], timeout)[0]:
            return
        data = os.read(self._status_fd, _STATUS.size)
        self._code = _STATUS.unpack(data)[0] if len(data) == _STATUS.size else -signal.SIGKILL
        os.close(self._status_fd)
        self._status_fd = -1

    def __del__(self):
        if self._status_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._status_fd)


class Template:
    """The caller's side of one template process (see module docs).

    Raises:
        OSError: the interpreter could not be started.
    """

    def __init__(self, warm: Sequence[str] = ()):
        from passcheck.execution.child import WorkerProcess

        self.owner = os.getpid()
        self.key = _key()
        self._proc = WorkerProcess(template_main, (tuple(warm),))
        self._sock = socket.socket(fileno=os.dup(self._proc.conn.fileno()))
        self._lock = threading.Lock()

    def alive(self) -> bool:
        return self._proc.is_alive()

    def fork(self, target: Any, args: tuple) -> Forked:
        """A worker running ``target(conn, *args)`` (``target`` importable by name), forked now.

        Raises:
            OSError / EOFError: the template is dead or gave no answer in time.
        """
        ours, theirs = socket.socketpair()
        status_r, status_w = os.pipe()
        try:
            with self._lock:
                reduction.sendfds(self._sock, [theirs.fileno(), status_w])
                self._proc.conn.send((target, args, os.getcwd()))
                deadline = time.monotonic() + _START_TIMEOUT
                while not self._proc.conn.poll(0.5):  # waking to honour a lost KeyboardInterrupt (interrupts)
                    interrupts.check()
                    if time.monotonic() > deadline:
                        raise OSError("the worker template gave no answer")
                pid = self._proc.conn.recv()
            if isinstance(pid, tuple):  # the template could not fork: (errno, text); it still serves
                raise NoFork(*pid)
        except (OSError, EOFError) as exc:
            ours.close()
            os.close(status_r)
            if not isinstance(exc, NoFork):  # the template is gone or hangs
                self.close()
            raise
        except BaseException:  # Ctrl-C amid a request: its answer would be read as the next one's
            ours.close()
            os.close(status_r)
            self.close()
            raise
        finally:
            theirs.close()
            os.close(status_w)
        return Forked(pid, Connection(ours.detach()), status_r)

    def close(self) -> None:
        """Stop the template (its forks get SIGKILL)."""
        with contextlib.suppress(OSError):
            self._sock.close()
        with contextlib.suppress(OSError):
            self._proc.conn.close()
        self._proc.kill()
        self._proc.join(5)


_TEMPLATE: Template | None = None
_GUARD = threading.Lock()


#: Variables left out of the template's key: pytest rewrites ``PYTEST_CURRENT_TEST`` at each phase of each test
#: (its documented use: telling which test runs), and neither onnx nor numpy reads it.
_NOT_KEYED = frozenset({"PYTEST_CURRENT_TEST"})


def _key() -> tuple:
    env = tuple(sorted((k, v) for k, v in os.environ.items() if k not in _NOT_KEYED))
    return sys.executable, env, tuple(sys.path)


def spawn(target: Any, args: tuple) -> Forked:
    """A worker running ``target(conn, *args)``, forked from this process's template (started or
    replaced first when needed, see module docs; a template found dead is replaced once).

    Raises:
        OSError / EOFError: no template could fork it (the caller starts an interpreter instead).
    """
    global _TEMPLATE
    for attempt in (1, 2):
        t, _ = _current()
        try:
            return t.fork(target, args)
        except NoFork:
            raise
        except (OSError, EOFError):  # fork() closed it: the next worker needs a new template
            with _GUARD:
                if _TEMPLATE is t:
                    _TEMPLATE = None
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def prestart(warm: Sequence[str] = ()) -> bool:
    """Start this process's template now, not waiting for its imports, unless a usable one runs:
    True when one was started here (it cannot fork before its imports are done: a caller that
    forks later has them overlap its own work), False when one was already running.

    ``warm``: modules the new template imports after :data:`PRELOAD` (the tools the caller's jobs
    will import, so every fork has them; each tolerated missing). Only modules whose import starts
    no thread belong there (the template forks). A running template is kept whatever it imported.

    Raises:
        OSError: the interpreter could not be started.
    """
    return _current(warm)[1]


def _current(warm: Sequence[str] = ()) -> tuple[Template, bool]:
    """This process's template for the current environment and ``sys.path`` (one found dead, of
    another process or key replaced; a new one importing ``warm`` too), and whether it was
    started here."""
    global _TEMPLATE
    with _GUARD:
        t = _TEMPLATE
        if t is not None and t.owner == os.getpid() and t.key == _key() and t.alive():
            return t, False
        if t is not None and t.owner == os.getpid():
            t.close()
        _TEMPLATE = t = Template(warm)
        return t, True


@atexit.register
def _close() -> None:
    if _TEMPLATE is not None and _TEMPLATE.owner == os.getpid():
        _TEMPLATE.close()


# -- the template's side ------------------------------------------------------------------------


def template_main(conn: Connection, warm: tuple[str, ...] = ()) -> None:
    """The template: import :data:`PRELOAD` and ``warm``, then fork one worker per request until the
    caller's end closes. A request is the worker's socket end and status pipe (``SCM_RIGHTS``), then
    ``(target, args, cwd)``; the answer is the fork's pid."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the caller's process group: the caller decides
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            __import__(name)
    for name in warm:  # what the caller's passes would import in their first job: timed as such
        start, cpu = time.perf_counter(), time.process_time()
        with contextlib.suppress(ImportError):
            __import__(name)
        process.record(f"import {name}", start, cpu)
    sock = socket.socket(fileno=os.dup(conn.fileno()))
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    status: dict[int, int] = {}  # pid → the write end of its status pipe
    while True:
        ready = wait([conn, wake_r])
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_r, 4096)
            _reap(status)
        if conn not in ready:
            continue
        try:
            fds = reduction.recvfds(sock, 2)
            target, args, cwd = conn.recv()
        except (EOFError, OSError, RuntimeError):  # the caller's process ended
            return
        try:
            pid = os.fork()
        except OSError as exc:  # no process to be had now: the caller starts one itself or says why
            for fd in fds:
                os.close(fd)
            conn.send((exc.errno, exc.strerror))
            continue
        if pid == 0:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for fd in (wake_r, wake_w, fds[1], *status.values()):
                os.close(fd)
            sock.close()
            conn.close()
            _child(target, args, cwd, fds[0])
        os.close(fds[0])
        status[pid] = fds[1]
        conn.send(pid)
        _reap(status)


def _reap(status: dict[int, int]) -> None:
    """Write the exit code of every fork that ended to its status pipe."""
    while status:
        try:
            pid, st = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        fd = status.pop(pid, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.write(fd, _STATUS.pack(os.waitstatus_to_exitcode(st)))
            os.close(fd)


def _child(target: Any, args: tuple, cwd: str, fd: int) -> None:
    """In the fork: run ``target(conn, *args)`` as a worker interpreter would, then exit with its
    code (1 and the traceback on stderr for an exception, as ``python -c`` does)."""
    code = 0
    try:
        os.chdir(cwd)
        target(Connection(fd), *args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - the worker's own last words, in its log
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)
