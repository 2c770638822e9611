"""The case registry: unique ids, selection by glob or tag, discovery of case modules.

Case modules come from three places: the built-in library (top-level ``cases/``, shipped in the
wheel as ``passcheck._library``), distributions exposing the ``passcheck.cases`` entry-point group,
and files or folders a user names (``--cases-from``).
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.metadata
import importlib.util
import pkgutil
import sys
from collections.abc import Iterable
from pathlib import Path

from passcheck.cases._case import Case
from passcheck.errors import PasscheckError, RegistryError, UnknownIdError


class CaseRegistry:
    """Case id → :class:`Case`. Registering an id twice raises :class:`RegistryError`."""

    def __init__(self) -> None:
        self._cases: dict[str, Case] = {}

    def register(self, case: Case) -> Case:
        if case.id in self._cases:
            raise RegistryError(f"duplicate case id {case.id!r}")
        self._cases[case.id] = case
        return case

    def __contains__(self, case_id: str) -> bool:
        return case_id in self._cases

    def __iter__(self):
        return iter(sorted(self._cases.values(), key=lambda c: c.id))

    def __len__(self) -> int:
        return len(self._cases)

    def get(self, case_id: str) -> Case:
        """Raises UnknownIdError (with close matches) for an unknown id."""
        if case_id not in self._cases and case_id.startswith(GENERATED_PREFIXES[0] + "/"):
            self._load_generated()
            if case_id not in self._cases:  # generated under another onnx: its bytes are shipped
                from passcheck.generate import stub

                self.register(stub(case_id))
        try:
            return self._cases[case_id]
        except KeyError:
            raise UnknownIdError("case", case_id, list(self._cases)) from None

    def select(self, patterns: Iterable[str] = ()) -> list[Case]:
        """Cases whose id or a tag matches any glob in ``patterns`` (all when empty).

        ``family/name:form`` patterns select the case; the form part is handled by the caller.

        Raises:
            UnknownIdError: a pattern matches nothing.
        """
        patterns = [p.split(":", 1)[0] if "/" in p else p for p in patterns]
        if any(p.startswith(GENERATED_PREFIXES) for p in patterns):
            self._load_generated()
        if not patterns:
            return list(self)
        chosen: dict[str, Case] = {}
        for pat in patterns:
            hits = [c for c in self if fnmatch.fnmatchcase(c.id, pat) or any(fnmatch.fnmatchcase(t, pat) for t in c.tags)]
            if not hits:
                raise UnknownIdError("case", pat, [c.id for c in self] + sorted({t for c in self for t in c.tags}))
            chosen.update((c.id, c) for c in hits)
        return [chosen[k] for k in sorted(chosen)]

    def _load_generated(self) -> None:
        """Register the generated set (passcheck.generate) once; only a ``generated/*`` id or a
        generated tag (``op:…``, ``spelling:…``) asks for it, so the default selection stays the
        hand-written library."""
        if not getattr(self, "_generated", False):
            self._generated = True
            from passcheck.generate import register_all

            register_all(self)


#: Selection prefixes that load the generated set (ids, then its tag kinds).
GENERATED_PREFIXES = ("generated", "op:", "spelling:", "dtype:", "since:", "variant:")


#: The process-wide registry that ``passcheck.cases.register`` fills.
REGISTRY = CaseRegistry()
_loaded = False


def _library_dir() -> Path:
    try:
        pkg = importlib.import_module("passcheck._library")
        return Path(next(iter(pkg.__path__)))
    except ImportError:
        # Source checkout without an install: the top-level cases/ folder beside the package.
        return Path(__file__).resolve().parents[2] / "cases"


def load_file(path: Path, prefix: str = "passcheck_user_cases") -> None:
    """Import one case module by path; its ``register(...)`` calls fill the registry.

    Raises:
        PasscheckError: the file is missing or fails to import (the error is named).
    """
    path = Path(path)
    if not path.is_file():
        raise PasscheckError(f"{path}: no such case module")
    if path.suffix != ".py":
        raise PasscheckError(f"{path}: a case module must be a Python file (.py)")
    name = f"{prefix}.{path.stem.replace('-', '_')}"
    if name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except PasscheckError:
        raise
    except Exception as exc:
        del sys.modules[name]
        raise PasscheckError(f"{path}: case module failed to import: {type(exc).__name__}: {exc}") from exc


def load_path(path: str | Path) -> None:
    """Load a case module file, or every ``*.py`` in a folder (sorted, ``_*`` skipped)."""
    p = Path(path)
    files = sorted(f for f in p.glob("*.py") if not f.name.startswith("_")) if p.is_dir() else [p]
    for f in files:
        load_file(f)


def load_builtin() -> CaseRegistry:
    """Import the built-in library and entry-point case modules once; return the registry."""
    global _loaded
    if _loaded:
        return REGISTRY
    _loaded = True
    lib = _library_dir()
    for info in sorted(pkgutil.iter_modules([str(lib)]), key=lambda m: m.name):
        if not info.name.startswith("_"):
            load_file(lib / f"{info.name}.py", prefix="passcheck._library")
    for ep in importlib.metadata.entry_points(group="passcheck.cases"):
        ep.load()
    return REGISTRY
