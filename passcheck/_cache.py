"""Where passcheck keeps what it builds once (generated cases, onnx's node tests).

``$PASSCHECK_CACHE``, else ``$XDG_CACHE_HOME/passcheck``, else ``~/.cache/passcheck``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def cache_root() -> Path:
    """The cache folder passcheck's built sets live under (not necessarily present)."""
    return Path(
        os.environ.get("PASSCHECK_CACHE")
        or os.path.join(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "passcheck")
    )


def built_set(folder: Path, build: Callable[[Path], dict], *, refresh: bool = False, announce: str = "") -> dict:
    """The index (``folder/index.json``) of a set built once per cache by ``build(tmp)``, which returns it.

    Two processes sharing the cache build a set once: the builder holds an exclusive ``flock`` on
    ``<folder>.lock`` while it builds into a private ``<folder>.tmpXXXX`` and renames it into place;
    another waits on the lock (saying so on stderr), then reads the index the first wrote. A build that
    stops (Ctrl-C, an error) removes its temporary folder, and the next builder removes any a killed one
    left (only the lock holder builds, so under the lock they are all stale). ``refresh`` builds again
    even when the folder exists (the old one moved aside, then removed). ``announce`` is printed to stderr
    when this process builds.

    Raises:
        whatever ``build`` raises, after removing its temporary folder.
    """
    import fcntl
    import json
    import shutil
    import sys
    import tempfile

    index = folder / "index.json"
    if index.is_file() and not refresh:
        return json.loads(index.read_text(encoding="utf-8"))
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(folder.name + ".lock"), "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"passcheck: waiting for another passcheck process building {folder}…", file=sys.stderr)
            fcntl.flock(lock, fcntl.LOCK_EX)
            refresh = False  # it built what this one would have
        if index.is_file() and not refresh:
            return json.loads(index.read_text(encoding="utf-8"))
        for stale in folder.parent.glob(folder.name + ".tmp*"):
            shutil.rmtree(stale, ignore_errors=True)
        if announce:
            print(announce, file=sys.stderr)
        tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".tmp", dir=folder.parent))
        try:
            doc = build(tmp)
            if folder.exists():
                old = Path(tempfile.mkdtemp(prefix=folder.name + ".tmp", dir=folder.parent))
                folder.rename(old / "old")
            tmp.rename(folder)
        finally:
            for left in folder.parent.glob(folder.name + ".tmp*"):
                shutil.rmtree(left, ignore_errors=True)
        return doc


def prune(parent: Path, current: Path, keep: int, idle: float, now: float | None = None) -> list[Path]:
    """Remove the built sets under ``parent`` (its folders holding an ``index.json``, one per key) beyond the
    ``keep`` most recently used ones, when unused for over ``idle`` seconds and no process holds their lock (a
    builder holds ``<folder>.lock``: :func:`built_set`); never ``current``. "Used" is the folder's mtime, which
    :func:`touch` sets. The removed folders' lock files go with them. Returns the removed folders.

    As ``passcheck/matrix/create.py`` collects overlays: a key that a source change or another tool version made
    is built anew, so without this a cache grows one folder per change."""
    import fcntl
    import shutil
    import time

    now = time.time() if now is None else now
    sets = sorted(
        (p for p in parent.glob("*") if p.is_dir() and (p / "index.json").is_file() and p != current),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    removed = []
    for old in sets[max(keep - 1, 0) :]:  # ``current`` is one of the ``keep``
        if now - old.stat().st_mtime <= idle:
            continue
        lock_file = old.with_name(old.name + ".lock")
        with open(lock_file, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # being built or rebuilt now
            shutil.rmtree(old, ignore_errors=True)
            lock_file.unlink(missing_ok=True)
        removed.append(old)
    return removed


def touch(folder: Path) -> None:
    """Mark the built set ``folder`` used now (its mtime, which :func:`prune` orders by); a folder gone or not
    writable is left as it is."""
    try:
        os.utime(folder)
    except OSError:
        pass
