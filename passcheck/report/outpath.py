"""Whether an output file can be written, asked before any work (every front door refuses a bad one)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def can_create_in(folder) -> bool:
    """A file can be made in ``folder``: tried, not guessed from permission bits (``os.access`` says yes
    to root on a read-only file system, and the run's output would then be lost after the run)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    try:
        fd, probe = tempfile.mkstemp(prefix=".passcheck-probe-", dir=folder)
    except OSError:
        return False
    os.close(fd)
    os.unlink(probe)
    return True


def _file_in_the_way(folder: Path) -> Path | None:
    """The nearest existing ancestor of ``folder`` (itself included) when it is not a directory, else None."""
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            return None if candidate.is_dir() else candidate
    return None


def file_problem(value: str) -> str | None:
    """Why the output file ``value`` cannot be written (a phrase ending in what to do), or None."""
    p = Path(value)
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        return "is a directory; give a file path"
    if not folder.is_dir():
        blocker = _file_in_the_way(folder)
        if blocker is not None:
            return f"{blocker} is a file, not a folder; choose another path"
        return f"folder {folder} does not exist; create it or choose another path"
    if p.exists() and not p.is_file():  # /dev/null, a FIFO: written in place (see atomic_write)
        ok = os.access(p, os.W_OK)
    else:  # written through a temporary file in its folder, then renamed
        ok = can_create_in(folder) and not (p.exists() and not os.access(p, os.W_OK))
    return None if ok else "not writable; choose a path passcheck can write"
