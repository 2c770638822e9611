"""A fresh ``PASSCHECK_CACHE`` seeded with the case library's gate verdicts, so a passcheck process started on it
does not judge the gated bases again.

A library case module that gates its candidates (``cases/contrib_ops.py``, ``cases/function_body_opsets.py``)
exposes ``FAMILY`` and ``gate_key()`` and keeps its verdicts in ``<cache>/<FAMILY>/<gate_key()>/`` (built once per
key, :func:`passcheck._cache.built_set`). A test that points ``PASSCHECK_CACHE`` at a new folder made every
process loading the library judge them again: 31.6 s wall, 6.72 user + 0.49 sys for ``registry()`` on an empty
cache vs 7.5 s wall, 1.78 + 0.05 on a seeded one (load ~24, session 39). The verdicts depend only on each module's
key, never on what else the cache holds, so copying the finished folders under the same key changes no case.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

#: Run by another interpreter (a pinned environment's): its gated modules' folders, as :func:`gated_modules` finds them.
_FOLDERS = """
import json, sys
from passcheck.cases import registry
registry().claim_library()
print(json.dumps([[m.FAMILY, m.gate_key()] for n, m in sorted(sys.modules.items())
                  if n.startswith("passcheck._library.") and isinstance(getattr(m, "FAMILY", None), str)
                  and callable(getattr(m, "gate_key", None))]))
"""


def gated_modules() -> list:
    """The loaded library case modules that keep gate verdicts (a ``FAMILY`` and a ``gate_key()``), after loading
    the library (:func:`passcheck.cases.registry`) with its gated families (lazy sources, claimed) in this
    process."""
    from passcheck.cases import registry

    registry().claim_library()
    return [
        m
        for n, m in sorted(sys.modules.items())
        if n.startswith("passcheck._library.") and isinstance(getattr(m, "FAMILY", None), str)
        and callable(getattr(m, "gate_key", None))
    ]  # fmt: skip


def gate_folders(python: str | Path | None = None) -> list[Path]:
    """``FAMILY/gate_key()`` of each gated module, relative to a cache: this process's (``python`` None), or
    those ``python`` (a pinned environment's interpreter, whose onnx and onnxruntime versions are in the keys)
    loads, asked in a subprocess under this process's environment (its gates, when not finished in the cache in
    force, built there once).

    Raises:
        AssertionError: ``python`` fails to list them (its stderr's tail).
    """
    if python is None:
        return [Path(m.FAMILY) / m.gate_key() for m in gated_modules()]
    r = subprocess.run([str(python), "-c", _FOLDERS], capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:]
    return [Path(family) / key for family, key in json.loads(r.stdout.splitlines()[-1])]


def seeded(cache: Path, python: str | Path | None = None) -> Path:
    """``cache`` (made if absent) holding a copy of each gated module's finished verdict folder (of
    :func:`gate_folders` ``(python)``) from the cache in force in this process (:func:`passcheck._cache.cache_root`,
    read before the caller points ``PASSCHECK_CACHE`` elsewhere). A folder not finished there (no ``index.json``)
    is not copied: the process started on ``cache`` then builds it, as without the seed."""
    from passcheck._cache import cache_root

    cache.mkdir(parents=True, exist_ok=True)
    source = cache_root()
    for rel in gate_folders(python):
        if (source / rel / "index.json").is_file():
            shutil.copytree(source / rel, cache / rel, dirs_exist_ok=True)
    return cache
