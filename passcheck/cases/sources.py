"""The case-source protocol: how cases reach the registry.

Every place cases come from is a :class:`CaseSource` the registry holds: the built-in library
(top-level ``cases/``), a user's files (``--cases-from``), each ``passcheck.cases`` entry point,
and the schema-generated set (:mod:`passcheck.generate`, plugged in through passcheck's own
``passcheck.cases`` entry point, so the registry never imports the generator). An *eager* source
registers its cases when the registry is loaded; a *lazy* one (the generated set) only when a
selection pattern or a case id it :meth:`~CaseSource.claims` asks for it, so the default selection
stays the hand-written library. The library's own gated modules (:class:`GatedModule`: bases judged by
running every tool once per cache) are lazy too: a module declaring :data:`DECLARATION` is not imported
until a selection may name its cases or a command that takes every base claims it.

An entry point of the ``passcheck.cases`` group names either a module whose import calls
``passcheck.cases.register(...)`` (the simple form) or an object implementing this protocol.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from passcheck.user_modules import builtin, load_file, load_path

if TYPE_CHECKING:
    from passcheck.case_model import Case


class Registry(Protocol):
    """What a source registers into (a :class:`~passcheck.cases.CaseRegistry`)."""

    def register(self, case: Case) -> Case: ...

    def __contains__(self, case_id: str) -> bool: ...


@runtime_checkable
class CaseSource(Protocol):
    """A provider of cases.

    Attributes:
        id: names the source in messages (``library``, ``generated``, a file path).
        lazy: registered only when :meth:`claims` accepts a pattern or id asked for.
    """

    id: str
    lazy: bool

    def claims(self, pattern: str) -> bool:
        """Whether a selection pattern or case id (``generated/…``, ``op:Add``) asks for this source."""

    def register_all(self, registry: Registry) -> None:
        """Register every case of the source (ids already present are left alone or raise, as the source says)."""

    def missing(self, case_id: str) -> Case | None:
        """A stand-in for an id this source names but did not produce here (or None).

        A source may also define ``notes() -> list[str]``: what it left out and why (one line each),
        shown by ``passcheck list`` and ``passcheck coverage`` once it is loaded."""


class ModuleFiles:
    """Case modules by path (a ``.py`` file, or every ``*.py`` of a folder): eager; importing a
    module calls ``passcheck.cases.register(...)``."""

    lazy = False

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.id = str(path)

    def claims(self, pattern: str) -> bool:
        return False

    def register_all(self, registry: Registry) -> None:
        load_path(self.path)

    def missing(self, case_id: str) -> Case | None:
        return None


#: The name of the literal a library module declares to be served lazily (:class:`GatedModule`).
DECLARATION = "SELECTED_BY"


def declared(path: str | Path) -> dict | None:
    """The module-level literal ``SELECTED_BY = {...}`` of the case module at ``path``, read without importing it
    (:func:`ast.literal_eval`), or None when it has none.

    Raises:
        PasscheckError: the literal is not a dict of ``ids`` / ``tags`` (lists of strings) and ``tags_of``
            (``"module:function"``).
    """
    import ast

    from passcheck.errors import PasscheckError

    text = Path(path).read_text(encoding="utf-8")
    if DECLARATION not in text:
        return None
    for node in ast.parse(text, str(path)).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == DECLARATION for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                value = None
            if not isinstance(value, dict) or set(value) - {"ids", "tags", "tags_of"}:
                raise PasscheckError(f"{path}: {DECLARATION} must be a literal dict of ids, tags and tags_of")
            return value
    return None


def may_match(glob: str, name: str) -> bool:
    """Whether the fnmatch ``glob`` matches ``name`` or, for a ``name`` ending in ``*`` (a prefix), may match some
    string starting with that prefix (a glob's ``*`` may take the rest of the prefix; ``?`` and ``[...]`` one
    character each, as :func:`fnmatch.fnmatchcase` reads them). Errs towards True: a lazy source that claims a
    pattern it turns out not to match only registers its cases, which the selection then leaves out."""
    if not _GLOB_CHARS.intersection(glob):  # a literal (a case id) matches only itself
        return glob == name if not name.endswith("*") else glob.startswith(name[:-1])
    if not name.endswith("*"):
        return fnmatch.fnmatchcase(name, glob)
    tokens = _tokens(glob)
    states = _closure({0}, tokens)
    for ch in name[:-1]:
        states = _closure(
            {
                i + (tokens[i] != "*")
                for i in states
                if i < len(tokens) and (tokens[i] in ("*", "?") or fnmatch.fnmatchcase(ch, tokens[i]))
            },
            tokens,
        )
        if not states:
            return False
    return True


#: the characters :func:`fnmatch.fnmatchcase` reads as a glob's own (any other character matches itself)
_GLOB_CHARS = frozenset("*?[")


def matcher(names: tuple[str, ...]) -> Callable[[str], bool]:
    """A test of a pattern or case id against ``names`` (ids and tags, or prefixes ending in ``*``): whether
    :func:`may_match` holds for one of them, a literal looked up at once (a set of the names, a tuple of the
    prefixes) rather than against each name."""
    plain = frozenset(n for n in names if not n.endswith("*"))
    prefixes = tuple(n[:-1] for n in names if n.endswith("*"))

    def test(pattern: str) -> bool:
        if _GLOB_CHARS.intersection(pattern):
            return any(may_match(pattern, n) for n in names)
        return pattern in plain or pattern.startswith(prefixes)

    return test


def _tokens(glob: str) -> list[str]:
    """``glob`` cut into one-character globs (``*``, ``?``, ``[...]``, a literal escaped as ``[c]``)."""
    out, i = [], 0
    while i < len(glob):
        c = glob[i]
        if c == "[":
            j = i + 1
            j += j < len(glob) and glob[j] == "!"
            j += j < len(glob) and glob[j] == "]"
            while j < len(glob) and glob[j] != "]":
                j += 1
            if j < len(glob):
                out.append(glob[i : j + 1])
                i = j + 1
                continue
        out.append(c if c in "*?" else f"[{c}]")
        i += 1
    return out


def _closure(states: set[int], tokens: list[str]) -> set[int]:
    """``states`` with every position a run of ``*`` may skip to (a ``*`` matching nothing)."""
    out, todo = set(states), list(states)
    while todo:
        i = todo.pop()
        if i < len(tokens) and tokens[i] == "*" and i + 1 not in out:
            out.add(i + 1)
            todo.append(i + 1)
    return out


class GatedModule:
    """A built-in library module whose bases a gate judges before they register (every tool run in the isolation
    worker, minutes on a cache's first load: :mod:`passcheck.cases.schema_gate`): lazy, imported only when a selection
    pattern or case id may name one of its cases, or when a command that takes every base claims the library's lazy
    sources (:meth:`~passcheck.cases.CaseRegistry.claim_library`: ``hunt`` and ``coverage`` by default).

    What names its cases is the module's own :data:`DECLARATION`, read without importing it (:func:`declared`):
    ``ids`` and ``tags`` (a name, or a prefix ending in ``*``) and ``tags_of``, ``"module:function"`` giving more
    tags at claim time (the tags of registered cases its cases inherit). The cases, their ids, tags and verdicts
    are the module's as when it was imported eagerly.
    """

    lazy = True
    #: part of the built-in library: a command that takes every base claims it
    library = True

    def __init__(self, path: str | Path, selected_by: dict, prefix: str = "passcheck._library"):
        self.path, self.prefix = Path(path), prefix
        self.id = self.path.stem
        self.ids = tuple(selected_by.get("ids", ()))
        self.tags = tuple(selected_by.get("tags", ()))
        self.tags_of = selected_by.get("tags_of")

    def names(self) -> tuple[str, ...]:
        """The ids and tags (names, or prefixes ending in ``*``) a selection names this module's cases by."""
        more: tuple[str, ...] = ()
        if self.tags_of:
            import importlib

            module, _, function = self.tags_of.partition(":")
            more = tuple(sorted(getattr(importlib.import_module(module), function)()))
        return (*self.ids, *self.tags, *more)

    def claims(self, pattern: str) -> bool:
        return self.claimer()(pattern)

    def claimer(self) -> Callable[[str], bool]:
        """:meth:`claims` with the names read now, once, for many ids (a ``tags_of`` function may walk every
        registered case's doc: :func:`passcheck.cases.rules.rule_case_tags`)."""
        return matcher(self.names())

    def register_all(self, registry: Registry) -> None:
        with builtin():  # the library's cases, also when first asked for inside a user module's import
            load_file(self.path, prefix=self.prefix)

    def missing(self, case_id: str) -> Case | None:
        return None
