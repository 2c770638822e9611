"""The case-source protocol: how cases reach the registry.

Every place cases come from is a :class:`CaseSource` the registry holds: the built-in library
(top-level ``cases/``), a user's files (``--cases-from``), each ``passcheck.cases`` entry point,
and the schema-generated set (:mod:`passcheck.generate`, plugged in through passcheck's own
``passcheck.cases`` entry point, so the registry never imports the generator). An *eager* source
registers its cases when the registry is loaded; a *lazy* one (the generated set) only when a
selection pattern or a case id it :meth:`~CaseSource.claims` asks for it, so the default selection
stays the hand-written library.

An entry point of the ``passcheck.cases`` group names either a module whose import calls
``passcheck.cases.register(...)`` (the simple form) or an object implementing this protocol.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from passcheck.user_modules import load_path

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
