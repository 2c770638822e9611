"""The process's idle isolation workers, kept from one front-door block to the next (issue 28).

A front door that is given no executor (a ``check`` / ``run`` through :class:`passcheck.session.Session`: the API,
the CLI's in-process entry, the pytest plugin, :mod:`passcheck.testing`; the hunt) used to start a
:class:`~passcheck.execution.Worker` and stop it at the end of its block, so every in-process call paid a worker's
start (a fork of the template, onnxruntime imported there, the first jobs' imports of passcheck's runtime) and lost
what the worker had warmed. :func:`leased` hands out a worker kept idle by an earlier block of this process when
one was made with the same key (:func:`key`: the worker's memory cap, the module files it preloads and their
bytes, the environment variables and ``sys.path`` it was started under, the working folder), and takes it back
at the block's end. Isolation is unchanged: a worker is still a separate process; a job that kills it or runs
past its timeout gets the same :class:`~passcheck.execution.Died`, and the next job a fresh process
(:class:`~passcheck.execution.Worker` replaces it); the caller's per-run state is dropped on return
(``reset()``), so one block sees nothing another did but what the worker process keeps by content digest
(models and feeds: the same bytes answer the same).

A worker goes back to the pool only when its block ended without an exception (an interrupted block may have a
job in flight) and its process is not mid-way through anything (no :meth:`~passcheck.execution.Worker.fixed_models`
block open); at most :data:`MAX_IDLE` idle workers are kept (the least recently returned closed first). Idle
workers are closed at interpreter exit; a forked child never uses its parent's (their pipes are the parent's).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

W = TypeVar("W")

#: Idle workers a process keeps for its next blocks (each is a process holding onnxruntime and what it kept).
MAX_IDLE = 2
#: Variables left out of the key: pytest rewrites ``PYTEST_CURRENT_TEST`` at each phase of each test, as the
#: template's key leaves it out (:mod:`passcheck.execution.template`); no job reads it.
_NOT_KEYED = frozenset({"PYTEST_CURRENT_TEST"})

_LOCK = threading.Lock()
_IDLE: list[tuple[tuple, Any]] = []  # (key, worker), oldest first
_OWNER = [os.getpid()]
_AT_EXIT: list[bool] = []  # whether clear() is registered to run at exit


def key(kind: type, memory_mb: int | None, preload: Sequence[str | Path]) -> tuple:
    """What a worker of class ``kind`` must share with a block for that block to use it: ``memory_mb`` (its
    address-space cap, set at its start), each ``preload`` file's resolved path and sha256 (imported at its
    start; a file rewritten since is a new key; a missing file keys as missing), the environment variables but
    ``PYTEST_CURRENT_TEST`` (a job reads ``os.environ`` as its process was started with it), ``sys.path`` and
    the working folder (a fork of the template runs where its caller was)."""
    files = []
    for p in preload:
        path = Path(p).resolve()
        try:
            files.append((str(path), hashlib.sha256(path.read_bytes()).hexdigest()))
        except OSError:
            files.append((str(path), None))
    env = tuple(sorted((k, v) for k, v in os.environ.items() if k not in _NOT_KEYED))
    return kind, memory_mb, tuple(files), env, tuple(sys.path), sys.executable, os.getcwd()


@contextlib.contextmanager
def leased(make: Callable[[], W], worker_key: tuple) -> Iterator[W]:
    """A worker for one block: an idle one of ``worker_key`` (the most recently returned), else ``make()``;
    returned to the pool when the block ends without an exception and the worker is idle (see module docs),
    otherwise closed. The caller sets per-block fields (timeout …) itself.

    Raises:
        whatever ``make()`` or the block raises (the worker is closed then).
    """
    worker = _take(worker_key)
    if worker is None:
        worker = make()
    try:
        yield worker
    except BaseException:
        _close(worker)
        raise
    _give_back(worker_key, worker)


def idle_count() -> int:
    """How many idle workers this process keeps now."""
    with _LOCK:
        _forget_inherited()
        return len(_IDLE)


def clear() -> None:
    """Close every idle worker of this process (the next block starts a new one)."""
    with _LOCK:
        _forget_inherited()
        idle = [w for _, w in _IDLE]
        _IDLE.clear()
    for w in idle:
        _close(w)


def _take(worker_key: tuple) -> Any:
    with _LOCK:
        _forget_inherited()
        for i in range(len(_IDLE) - 1, -1, -1):
            if _IDLE[i][0] == worker_key:
                return _IDLE.pop(i)[1]
    return None


def _give_back(worker_key: tuple, worker: Any) -> None:
    if getattr(worker, "_fixed", 0) or not _reset(worker):
        _close(worker)
        return
    with _LOCK:
        _forget_inherited()
        if not _AT_EXIT:  # registered after the template's own exit hook (imported by the first worker's start),
            atexit.register(clear)  # so it runs first: the workers end before the template that reaps them
            _AT_EXIT.append(True)
        _IDLE.append((worker_key, worker))
        excess = max(0, len(_IDLE) - MAX_IDLE)
        dropped = [w for _, w in _IDLE[:excess]]
        del _IDLE[:excess]
    for w in dropped:
        _close(w)


def _reset(worker: Any) -> bool:
    """``worker.reset()`` when it has one (its per-block state dropped); False when that raised."""
    reset = getattr(worker, "reset", None)
    if reset is None:
        return True
    try:
        reset()
    except Exception:  # noqa: BLE001 - a worker that cannot be reset is closed instead of kept
        return False
    return True


def _forget_inherited() -> None:
    """In a forked child: drop the parent's idle workers unclosed (the parent owns them). Called under the lock."""
    if _OWNER[0] != os.getpid():
        _IDLE.clear()
        _OWNER[0] = os.getpid()


def _close(worker: Any) -> None:
    with contextlib.suppress(Exception):
        worker.close()
