"""The process's own isolation worker, for a library call given no executor (M262).

The product rule: a tool run that can crash (onnxruntime, onnx's checker, shape inference and reference evaluator on
a form no tool has met) runs isolated, whatever the front door. The CLI, the hunt and the pytest plugin hold an
:class:`~passcheck.passes.isolation.IsolatedExecutor`; a library call made without one
(:func:`passcheck.mutations.verify_equivalent` and :func:`~passcheck.mutations.verified_mutants` with ``runner`` and
``checker`` None) takes this one: started on first use, kept for the process's later calls (the tools are imported
once), closed when the process exits. A forked child never uses its parent's (its pipe is the parent's): it starts
its own.
"""

from __future__ import annotations

import atexit
import os
import threading

from passcheck.passes.isolation import IsolatedExecutor

_LOCK = threading.Lock()
_MINE: dict[int, IsolatedExecutor] = {}  # pid → this process's executor


def shared_executor() -> IsolatedExecutor:
    """This process's :class:`~passcheck.passes.isolation.IsolatedExecutor` (default limits: 300 s per job,
    8 GiB address space), made on the first call; its worker process starts with the first job.

    Raises:
        WorkerStartError: (at the first job, from :mod:`passcheck.execution`) the worker could not be started.
    """
    pid = os.getpid()
    with _LOCK:
        ex = _MINE.get(pid)
        if ex is None:
            _MINE.clear()  # a parent's, inherited through fork: never closed here (the parent owns its worker)
            ex = _MINE[pid] = IsolatedExecutor()
            atexit.register(_close, pid)
        return ex


def _close(pid: int) -> None:
    if os.getpid() == pid and (ex := _MINE.pop(pid, None)) is not None:
        ex.close()


__all__ = ["shared_executor"]
