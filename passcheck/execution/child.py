"""The isolation worker's process: a fresh interpreter that imports passcheck, never the caller's script.

multiprocessing's ``spawn`` and ``forkserver`` start methods run the parent's ``__main__`` module
again in the child (the "safe importing of the main module" rule of the multiprocessing docs), so a
user's script that calls the API at top level, with no ``if __name__ == "__main__":`` guard, ran
itself in the worker, which could then not start. This worker is started with :mod:`subprocess`
as ``python -c`` instead: it gets the parent's ``sys.path`` and working directory, imports the
function it is told to run by name, and talks to the parent over a
:class:`multiprocessing.connection.Connection` on an inherited socket. Nothing of ``__main__`` is
run, whatever the platform's default start method.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from multiprocessing.connection import Connection
from typing import Any

_BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from passcheck.execution.child import _main; _main(int(sys.argv[2]))"
)


class WorkerProcess:
    """A child interpreter running ``target(conn, *args)`` (``target`` importable by name, ``args``
    picklable); ``conn`` is this object's :attr:`conn`'s other end.

    The process interface the isolation executor uses (``pid``, ``is_alive``, ``exitcode`` —
    negative: the signal that ended it, as in :class:`multiprocessing.Process` — ``join``, ``kill``).

    Raises:
        OSError: the interpreter could not be started.
    """

    def __init__(self, target: Any, args: tuple = ()):
        paths = [p or os.getcwd() for p in sys.path]  # '' meant the caller's folder
        ours, theirs = socket.socketpair()
        try:
            self._popen = subprocess.Popen(
                [sys.executable, "-c", _BOOT, json.dumps(paths), str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.conn = Connection(ours.detach())
        self.conn.send((target, args))

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def exitcode(self) -> int | None:
        return self._popen.poll()

    def is_alive(self) -> bool:
        return self._popen.poll() is None

    def join(self, timeout: float | None = None) -> None:
        try:
            self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            pass

    def kill(self) -> None:
        if self._popen.poll() is None:
            self._popen.kill()


def _main(fd: int) -> None:
    """The child's side: receive (target, args) and run ``target(conn, *args)``."""
    conn = Connection(fd)
    try:
        target, args = conn.recv()
    except (EOFError, OSError):
        return
    target(conn, *args)
