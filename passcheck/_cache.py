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


def judged_once(family: str, module: str, judge: Callable[[], dict], key: str) -> dict:
    """The index ``judge()`` returns (id → verdicts), built once per ``key`` (what the verdicts depend on: the
    generator's hash, tool versions) and text of the file ``module`` and cached under ``<cache>/<family>/<digest>/``
    (:func:`built_set`): a library family's gate, run by the first process that loads it.

    Raises:
        whatever ``judge`` raises (nothing is cached then).
    """
    import hashlib
    import json

    digest = hashlib.sha256(key.encode() + Path(module).read_bytes()).hexdigest()[:16]

    def build(tmp: Path) -> dict:
        doc = judge()
        (tmp / "index.json").write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")
        return doc

    return built_set(cache_root() / family / digest, build, announce=f"passcheck: checking the {family} bases once")
