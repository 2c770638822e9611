"""Import a user's Python module (a case or pass module) by file path.

Used by the case registry (``--cases-from``, the built-in library) and by the isolation worker's
preload, so a function of such a module pickled by reference in passcheck's process resolves to
the same module name in the worker (``<prefix>.<stem>``).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import sys
import types
from collections.abc import Iterator
from pathlib import Path

from passcheck.errors import PasscheckError

#: Prefix of user modules (``--cases-from``); their names carry their file's path, so two files of one
#: stem (two projects' ``cases.py``) are two modules in one process.
USER_PREFIX = "passcheck_user_cases"

#: Names of the user modules being imported, innermost last (a registry records which one registered
#: a case or pass, so that :func:`unload` can take it back).
_LOADING: list[str] = []
_BUILTIN = "<passcheck built-in>"  # a _LOADING entry: see builtin()


def _module_name(path: Path, prefix: str) -> str:
    stem = path.stem.replace("-", "_")
    if prefix != USER_PREFIX:
        return f"{prefix}.{stem}"
    where = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:10]
    return f"{prefix}.{stem}_{where}"


def _files(path: str | Path) -> list[Path]:
    p = Path(path)
    return sorted(f for f in p.glob("*.py") if not f.name.startswith("_")) if p.is_dir() else [p]


def imported(path: str | Path, prefix: str = USER_PREFIX) -> bool:
    """Whether every module of ``path`` (a file, or a folder's ``*.py``) was already imported in this
    process: loading it again registers nothing new (a second in-process ``run --cases-from``)."""
    files = _files(path)
    return bool(files) and all(_module_name(f, prefix) in sys.modules for f in files)


def load_file(path: Path, prefix: str = USER_PREFIX) -> None:
    """Import one module by path as ``<prefix>.<stem>`` (a user module: ``<prefix>.<stem>_<hash of its
    resolved path>``), once per name; ``-`` in the stem becomes ``_``.

    Raises:
        PasscheckError: the file is missing, is not a ``.py`` file, or fails to import (named).
    """
    path = Path(path)
    if not path.is_file():
        raise PasscheckError(f"{path}: no such case module")
    if path.suffix != ".py":
        raise PasscheckError(f"{path}: a case module must be a Python file (.py)")
    name = _module_name(path, prefix)
    if name in sys.modules:
        return
    if prefix == USER_PREFIX:  # a built-in prefix lies under passcheck, which imports
        _package(prefix)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    _LOADING.append(name)
    try:
        spec.loader.exec_module(module)
    except PasscheckError:
        raise
    except Exception as exc:
        del sys.modules[name]
        raise PasscheckError(f"{path}: case module failed to import: {type(exc).__name__}: {exc}") from exc
    finally:
        _LOADING.pop()


def _package(prefix: str) -> None:
    """``prefix`` in ``sys.modules`` as an empty package: pickle finds a function by importing its module's
    dotted name, which imports the parent first, so without it no user module's function pickles by reference
    (M165, round 12s: every ``--cases-from`` pass ran in a per-cell fork of passcheck's process, not in the
    persistent isolation worker that preloads the same file; the worker registers the same package)."""
    if prefix not in sys.modules:
        package = types.ModuleType(prefix, "the modules passcheck imports by file path (passcheck.user_modules)")
        package.__path__ = []  # a package with no folder: a name under it that was not loaded by path is not found
        sys.modules[prefix] = package


def load_path(path: str | Path) -> None:
    """Load a module file, or every ``*.py`` in a folder (sorted, ``_*`` skipped)."""
    for f in _files(path):
        load_file(f)


def loading() -> str | None:
    """The user module (``--cases-from``) whose import is running, innermost; None outside one, and inside
    a :func:`builtin` block even when that block runs during a user module's import."""
    for name in reversed(_LOADING):
        if name == _BUILTIN:
            return None
        if name.startswith(USER_PREFIX + "."):
            return name
    return None


@contextlib.contextmanager
def builtin() -> Iterator[None]:
    """Within the block, what registers is passcheck's own (the built-in library, entry-point modules), not
    the running user module's: a user module that asks for the registry at import loads the library inside
    its own import, and the cases it did not write must outlive its scope (:mod:`passcheck.cases.scope`)."""
    _LOADING.append(_BUILTIN)
    try:
        yield
    finally:
        _LOADING.pop()


def user_modules() -> set[str]:
    """Names of the user modules (``--cases-from``) imported in this process."""
    return {n for n in sys.modules if n.startswith(USER_PREFIX + ".")}


def unload(names: set[str]) -> None:
    """Drop user modules from ``sys.modules``: a later :func:`load_file` of their file imports it anew
    (and registers its cases again). The caller takes their registrations back first."""
    for name in names:
        sys.modules.pop(name, None)
