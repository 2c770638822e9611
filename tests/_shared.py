"""One build of an expensive fixture per test run, shared by every pytest-xdist worker.

A session- or module-scoped fixture is built once per *worker* that runs one of its tests: with ``-n 6
--dist worksteal`` a module's tests are split between workers, and each rebuilt the same real environment or
report. :func:`built_once` builds into a folder of the run's shared temporary root (the parent of the workers'
``basetemp``, as pytest-xdist documents for session fixtures) under a file lock: the first worker builds it,
the others wait on the lock and reuse it. Tests read what is built there and write only below their own
``tmp_path``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock


def _shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(
    tmp_path_factory: pytest.TempPathFactory, key: str, build: Callable[[Path], object]
) -> tuple[Path, object]:
    """(folder, value): ``build(folder)`` run once per test run for ``key``, its JSON-serializable return value
    kept beside what it wrote. ``key`` names the content (a name plus whatever the build depends on).

    A build that raises leaves nothing behind: the next worker that asks builds again (and fails the same way).
    """
    root = _shared_root(tmp_path_factory)
    folder, done = root / f"shared-{key}", root / f"shared-{key}.json"
    with FileLock(str(root / f"shared-{key}.lock")):
        if not done.is_file():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            value = build(folder)
            done.write_text(json.dumps({"value": value}))
        return folder, json.loads(done.read_text())["value"]


def generated_cases(tmp_path_factory: pytest.TempPathFactory, key: str, ops: list[str]):
    """Yield {case id: Case} of the generated set restricted to ``ops``, generated once per test run
    (:func:`built_once` under ``key``) into a cache copied for the caller; ``PASSCHECK_CACHE`` points at
    the copy until the generator is closed (use it as a module-scoped fixture's body: ``yield from``)."""
    from passcheck.generate import cases as to_cases
    from passcheck.generate import index

    def build(folder: Path) -> None:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("PASSCHECK_CACHE", str(folder))
            index(ops=ops, quiet=True)

    shared, _ = built_once(tmp_path_factory, key, build)
    own = tmp_path_factory.mktemp("cache")
    shutil.copytree(shared, own, dirs_exist_ok=True)
    mp = pytest.MonkeyPatch()
    mp.setenv("PASSCHECK_CACHE", str(own))
    yield {c.id: c for c in to_cases(index(ops=ops, quiet=True))}
    mp.undo()


def forms_cache_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: str) -> tuple[Path, list[int]]:
    """The forms cache (:mod:`passcheck.mutations.listing`) on, in a folder of ``tmp_path``'s own; ``calls`` (the
    second item) grows by one each time ``passcheck.mutations.forms.<counted>`` computes what the cache keeps."""
    from passcheck.mutations import forms as hforms
    from passcheck.mutations import listing

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv(listing.SWITCH, "1")
    calls: list[int] = []
    real = getattr(hforms, counted)
    monkeypatch.setattr(hforms, counted, lambda *a, **k: calls.append(1) or real(*a, **k))
    return tmp_path / "cache" / "forms", calls
