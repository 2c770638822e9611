"""The xdist controller writes pytest's assertion-rewritten bytecode of the test modules once, before the workers
start.

pytest rewrites the ``assert`` statements of every test module and conftest it imports and keeps the result as a
pyc of its own (``__pycache__/NAME.cpython-311-pytest-X.pyc``, or below ``sys.pycache_prefix``, which ``.ci/run``
sets). On a fresh clone (or after the bytecode folder was emptied) no such pyc exists, and the ``-n 6`` workers,
which collect the same modules in the same order at the same time, each rewrite all of them: about 3.4 s of CPU
per worker for the suite's ~430 modules, five times more than once. :func:`write` rewrites them once in the
controller through pytest's own functions (``_pytest.assertion.rewrite``: the same code object and pyc format the
import hook writes, its atomic rename included), so each worker finds them and only reads them.

It uses pytest internals: anything missing or failing there (another pytest version, a read-only folder) only
leaves a module to its workers, which rewrite it as before — a cost in time, never in a test's outcome, since
pytest checks each pyc against its source hash before using it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path, PurePath

import pytest


def modules(args: Iterable[str], patterns: Iterable[str]) -> list[Path]:
    """The Python files pytest would rewrite under ``args`` (files or folders, as on the command line; a
    ``path::test`` id counts as its file): conftest files and files matching ``patterns`` (``python_files``),
    sorted; a file named on the command line always counts."""
    from _pytest.pathlib import fnmatch_ex

    pats = list(patterns)
    found: set[Path] = set()
    for arg in args:
        path = Path(str(arg).split("::", 1)[0]).resolve()
        if path.is_file() and path.suffix == ".py":
            found.add(path)
        elif path.is_dir():
            for p in path.rglob("*.py"):
                if p.name == "conftest.py" or any(fnmatch_ex(pat, PurePath(p)) for pat in pats):
                    found.add(p)
    return sorted(found)


def write(config: pytest.Config, files: Iterable[Path]) -> int:
    """Write the rewritten-assertion pyc of each of ``files`` that has none for its current source; returns how
    many were written. Nothing is written when bytecode is not kept (``sys.dont_write_bytecode``) or assertions
    are not rewritten (``--assert=plain``)."""
    if sys.dont_write_bytecode:
        return 0
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        tail = rewrite.PYC_TAIL
    except (ImportError, AttributeError, KeyError):  # another pytest, or assertions not rewritten
        return 0
    written = 0
    for fn in files:
        try:
            folder = rewrite.get_cache_dir(fn)
            pyc = folder / (fn.name[:-3] + tail)
            if rewrite._read_pyc(fn, pyc) is not None or not rewrite.try_makedirs(folder):
                continue
            source_hash, co = rewrite._rewrite_test(fn, config)
            written += bool(rewrite._write_pyc(state, co, source_hash, pyc))
        except Exception:  # noqa: BLE001 - e.g. a syntax error: the worker's import reports it, as before
            continue
    return written
