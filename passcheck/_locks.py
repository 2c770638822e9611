"""One process at a time in a folder passcheck writes: an exclusive ``flock`` on a file held open.

The kernel drops the lock when the file is closed or the process dies, so a killed run leaves no stale lock.
"""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO

from passcheck.errors import PasscheckError


def exclusive(path: Path, refusal: str) -> IO[str]:
    """``path`` opened for appending (created when missing) and locked for this open file until it is closed.

    Raises:
        PasscheckError: ``refusal``, when another open file (another process) holds the lock.
        OSError: ``path`` cannot be opened.
    """
    f = open(path, "a", encoding="utf-8")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        raise PasscheckError(refusal) from None
    return f
