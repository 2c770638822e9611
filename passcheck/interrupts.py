"""Ctrl-C (SIGINT) and SIGTERM end a CLI command the same way: KeyboardInterrupt, then the
command's cleanup (workers killed, partial report written) and exit code 130.

Python raises the KeyboardInterrupt wherever the main thread happens to be; raised inside a
finalizer (``__del__``, a weakref callback) it is printed and dropped, and the run would go on
to a normal exit code. So the signal is also latched: :func:`check`, called where a command
waits or between cells, raises again until the command has stopped. Repeated signals while the
cleanup runs are not raised again (the cleanup kills processes; interrupting it would leave them).

A KeyboardInterrupt raised half-way through building an object a finalizer watches (multiprocessing's
``Finalize`` between registering its weakref and setting its key) leaves a callback that fails when it
fires, at teardown; once interrupted, such "exception ignored" reports are one line on stderr, not a
traceback (``sys.unraisablehook``, Python's hook for exceptions no caller can catch).
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator

_received: int | None = None


class Interrupted(KeyboardInterrupt):
    """The KeyboardInterrupt of an interrupt that landed after some work was produced and before it
    was finished: ``unfinished`` holds it as records (the engine: one ``unchecked`` cell per pass
    output the oracles had not judged yet), for the front door's partial report."""

    def __init__(self, unfinished=()):
        super().__init__()
        self.unfinished = list(unfinished)


def received() -> int | None:
    """The signal number that interrupted this command, or None."""
    return _received


def check() -> None:
    """Raise KeyboardInterrupt if SIGINT or SIGTERM arrived (no-op otherwise).

    Raises:
        KeyboardInterrupt: a signal arrived; its first delivery may have been lost.
    """
    if _received is not None:
        raise KeyboardInterrupt


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done (e.g. a cell recorded in both the report
    and the stream, or a process tree stopped and killed); their handler then runs as usual."""
    masked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, masked)


def _one_line(unraisable) -> None:
    """``sys.unraisablehook`` after an interrupt: the exception and where it was ignored, one line."""
    exc = unraisable.exc_value
    where = unraisable.err_msg or "Exception ignored in"
    sys.stderr.write(f"passcheck: while stopping: {where} {unraisable.object!r}: {type(exc).__name__}: {exc}\n")


def _handler(signum, frame) -> None:
    global _received
    first = _received is None
    _received = signum
    if first:
        if sys.unraisablehook is sys.__unraisablehook__:  # for the rest of this process (it is stopping); a
            sys.unraisablehook = _one_line  # hook someone else set stays theirs
        raise KeyboardInterrupt


@contextlib.contextmanager
def handled() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise KeyboardInterrupt once (main thread only;
    elsewhere a no-op). The previous handlers are restored afterwards."""
    global _received
    _received = None
    old = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            old[sig] = signal.signal(sig, _handler)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)
        _received = None  # later work in this process (a test calling the CLI twice) starts clean
