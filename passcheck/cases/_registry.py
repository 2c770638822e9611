"""The case registry: unique ids, selection by glob or tag, discovery of case modules.

Case modules come from three places: the built-in library (top-level ``cases/``, shipped in the
wheel as ``passcheck._library``), distributions exposing the ``passcheck.cases`` entry-point group,
and files or folders a user names (``--cases-from``).
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.metadata
import pkgutil
import sys
import types
from collections.abc import Iterable
from pathlib import Path

from passcheck.case_model import Case
from passcheck.cases.sources import CaseSource, GatedModule, declared
from passcheck.errors import RegistryError, UnknownIdError
from passcheck.user_modules import builtin, load_file, load_path, loading  # noqa: F401 - load_path: cases.load_path


class CaseRegistry:
    """Case id → :class:`Case`. Registering an id twice raises :class:`RegistryError`."""

    def __init__(self) -> None:
        self._cases: dict[str, Case] = {}
        self._sources: list[CaseSource] = []
        self._loaded_sources: set[int] = set()
        self._origin: dict[str, str] = {}  # case id -> the user module that registered it
        self._held: dict[int, object] | None = None  # while a source registers: id(source) -> its claimer

    def register(self, case: Case) -> Case:
        if case.id in self._cases:
            raise RegistryError(f"duplicate case id {case.id!r}")
        self._cases[case.id] = case
        if (module := loading()) is not None:
            self._origin[case.id] = module
        return case

    def forget_modules(self, modules: set[str]) -> None:
        """Take back the cases the user modules ``modules`` registered (an in-process command ending:
        the next one loads its own ``--cases-from``)."""
        for case_id in [i for i, m in self._origin.items() if m in modules]:
            self._cases.pop(case_id, None)
            del self._origin[case_id]

    def __contains__(self, case_id: str) -> bool:
        """Whether ``case_id`` is registered; a gated library family (a lazy ``library`` source) whose ids it may be
        is registered first, so a recorded id (a finding to triage) is found as before the family was lazy."""
        if case_id not in self._cases:
            self._register_once(s for s in self._unloaded_library() if self._claims(s, case_id))
        return case_id in self._cases

    def _unloaded_library(self):
        """The lazy library sources not registered yet, each read when the caller comes to it (a generator)."""
        return (
            s for s in self._sources if s.lazy and getattr(s, "library", False) and id(s) not in self._loaded_sources
        )

    def _claims(self, source: CaseSource, case_id: str) -> bool:
        """``source.claims(case_id)``; while a source registers its cases (``if case.id not in registry``, one id
        after another: ~4,000 for the generated set), with each library source's names read once for that batch
        (its ``claimer()``, when it has one): read per id, :class:`~passcheck.cases.sources.GatedModule`'s
        ``tags_of`` (rule_commuted's, every registered case's doc) walked the growing registry once per id, 17 s of
        CPU in each process that selected the generated set. The same sources register unless a case of the batch
        itself gives a library source a name that a later id of the batch matches."""
        if self._held is None or not hasattr(source, "claimer"):
            return source.claims(case_id)
        if id(source) not in self._held:
            self._held[id(source)] = source.claimer()
        return self._held[id(source)](case_id)

    def __iter__(self):
        return iter(sorted(self._cases.values(), key=lambda c: c.id))

    def __len__(self) -> int:
        return len(self._cases)

    def get(self, case_id: str) -> Case:
        """Raises UnknownIdError (with close matches) for an unknown id."""
        if case_id not in self._cases:
            for source in self._claiming([case_id]):
                if case_id not in self._cases and (stand_in := source.missing(case_id)) is not None:
                    self.register(stand_in)  # e.g. generated under another onnx: its bytes are shipped
        try:
            return self._cases[case_id]
        except KeyError:
            raise UnknownIdError("case", case_id, list(self._cases)) from None

    def select(self, patterns: Iterable[str] = ()) -> list[Case]:
        """Cases whose id or a tag matches any pattern (all when empty).

        A pattern is ``GLOB`` or ``GLOB:FORMGLOB`` (fnmatch globs): GLOB against the case id or a
        tag, FORMGLOB against the form names. A pattern that matches as a whole is a GLOB (tags
        such as ``dtype:float`` hold a colon); else it splits at its last colon. The whole case is
        returned (parity compares its forms with ``common``); :func:`form_wanted` tells which of
        its cells were asked for.

        Raises:
            UnknownIdError: a GLOB matches nothing, or a FORMGLOB no form of the cases GLOB matches.
        """
        patterns = list(patterns)
        self._claiming([p for pat in patterns for p in (pat, pat.rpartition(":")[0]) if p])
        if not patterns:
            return list(self)
        chosen: dict[str, Case] = {}
        for pat in patterns:
            hits, (cglob, sep, fglob) = [c for c in self if _case_matches(c, pat)], pat.rpartition(":")
            if not hits and sep:
                hits = [c for c in self if _case_matches(c, cglob)]
                forms = sorted({f for c in hits for f in c.forms})
                if hits and not any(fnmatch.fnmatchcase(f, fglob) for f in forms):
                    raise UnknownIdError("form", fglob, forms)
            if not hits:
                known = [c.id for c in self] + sorted({t for c in self for t in c.tags})
                raise UnknownIdError("case", cglob if sep else pat, known)
            chosen.update((c.id, c) for c in hits)
        return [chosen[k] for k in sorted(chosen)]

    def add_source(self, source: CaseSource) -> None:
        """Hold ``source`` (:class:`~passcheck.cases.sources.CaseSource`): an eager one registers
        its cases now, a lazy one when a pattern or id it claims is asked for."""
        self._sources.append(source)
        if not source.lazy:
            source.register_all(self)

    def claim_library(self) -> None:
        """Register every lazy source that is part of the built-in library (a ``library`` attribute: the gated
        modules, :class:`~passcheck.cases.sources.GatedModule`), as a command that takes every base does (``hunt``
        and ``coverage`` with no ``--case``): their gates are judged now (once per cache)."""
        self._register_once([s for s in self._sources if s.lazy and getattr(s, "library", False)])

    def unclaimed(self) -> list[CaseSource]:
        """The library's lazy sources not registered in this process (``passcheck list`` names them)."""
        return [
            s for s in self._sources if s.lazy and getattr(s, "library", False) and id(s) not in self._loaded_sources
        ]

    def user_module(self, case_id: str) -> str | None:
        """The user module (``--cases-from``) that registered ``case_id``; None for passcheck's own cases."""
        return self._origin.get(case_id)

    def notes(self) -> list[str]:
        """What each loaded source says it left out (an optional ``notes()`` of the source protocol:
        e.g. the onnx-node tests skipped, by reason), one line each."""
        return [
            line
            for s in self._sources
            if (not s.lazy or id(s) in self._loaded_sources) and (say := getattr(s, "notes", None))
            for line in say()
        ]

    def _claiming(self, asked: Iterable[str]) -> list[CaseSource]:
        """Register each lazy source (once) that claims one of ``asked``; the sources claiming any."""
        asked = list(asked)
        hit = [s for s in self._sources if s.lazy and any(s.claims(a) for a in asked)]
        self._register_once(hit)
        return hit

    def _register_once(self, sources: Iterable[CaseSource]) -> None:
        for source in sources:
            if id(source) not in self._loaded_sources:
                self._loaded_sources.add(id(source))
                held, self._held = self._held, {}  # the claimers of this source's batch (_claims)
                try:
                    source.register_all(self)
                finally:
                    self._held = held


def _case_matches(case: Case, cglob: str) -> bool:
    return fnmatch.fnmatchcase(case.id, cglob) or any(fnmatch.fnmatchcase(t, cglob) for t in case.tags)


def form_wanted(case: Case, form: str, patterns: Iterable[str]) -> bool:
    """Whether the cell ``case:form`` is asked for by a pattern ``GLOB[:FORMGLOB]`` (all when none),
    read as :meth:`CaseRegistry.select` reads it."""
    patterns = list(patterns)
    if not patterns:
        return True
    for pat in patterns:
        cglob, sep, fglob = pat.rpartition(":")
        if _case_matches(case, pat) or (sep and _case_matches(case, cglob) and fnmatch.fnmatchcase(form, fglob)):
            return True
    return False


#: The process-wide registry that ``passcheck.cases.register`` fills.
REGISTRY = CaseRegistry()
_loaded = False


def _library_dir() -> Path:
    try:
        pkg = importlib.import_module("passcheck._library")
        return Path(next(iter(pkg.__path__)))
    except ImportError:
        # Source checkout without an install (PYTHONPATH=checkout): the top-level cases/ folder beside the package,
        # importable as passcheck._library, as from the wheel (a library module may import a sibling by that name).
        lib = Path(__file__).resolve().parents[2] / "cases"
        package = types.ModuleType("passcheck._library")
        package.__path__ = [str(lib)]
        sys.modules.setdefault("passcheck._library", package)
        return lib


def load_builtin() -> CaseRegistry:
    """Import the built-in library and entry-point case modules once; return the registry."""
    global _loaded
    if _loaded:
        return REGISTRY
    _loaded = True
    with builtin():  # also when first asked for by a user module's import
        _load_builtin()
    return REGISTRY


def _load_builtin() -> None:
    """Import the library's modules in name order, except a gated one (it declares ``SELECTED_BY``: a lazy
    :class:`~passcheck.cases.sources.GatedModule`, imported when a selection names its cases), then the entry
    points."""
    lib = _library_dir()
    for info in sorted(pkgutil.iter_modules([str(lib)]), key=lambda m: m.name):
        if not info.name.startswith("_"):
            path = lib / f"{info.name}.py"
            if (selected_by := declared(path)) is not None:
                REGISTRY.add_source(GatedModule(path, selected_by))
            else:
                load_file(path, prefix="passcheck._library")
    entry_points = importlib.metadata.entry_points(group="passcheck.cases")
    for ep in entry_points:
        loaded = ep.load()  # a module registers on import; an object may be a case source
        if isinstance(loaded, CaseSource):
            REGISTRY.add_source(loaded)
    _warn_if_stale(entry_points)


def _warn_if_stale(entry_points) -> None:
    """passcheck's own cases (the generated set) come through its entry point: metadata written by an
    install older than that entry point has none, and ``generated/*`` would be unknown ids."""
    try:
        ours = importlib.metadata.distribution("onnx-passcheck")
    except importlib.metadata.PackageNotFoundError:
        return
    if not any(ep.group == "passcheck.cases" for ep in ours.entry_points):
        import warnings

        warnings.warn(
            "the installed metadata of onnx-passcheck predates its 'passcheck.cases' entry point: "
            "reinstall it (pip install -e .) to select the generated cases",
            stacklevel=3,
        )
