"""The one list of oracles the engine applies, and how a group of cells is judged.

Adding an oracle: a module in :mod:`passcheck.oracles` defining ``ORACLE`` (see
:class:`~passcheck.oracles._contract.Oracle`), its name in :data:`BUILTIN`, and tests (one with
a planted bug it must catch). Tests and plugins may add one for a while with :func:`registered`.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator

from passcheck.errors import PasscheckError
from passcheck.oracles._contract import INPUT, PASS, Cells, Oracle
from passcheck.records import Finding

#: Built-in oracle modules, in report order (a cell's findings come in this order).
BUILTIN = (
    "validity",
    "numeric",
    "annotations",
    "folding",
    "expectations",
    "acceptance",
    "parity",
    "runtime",
    "agreement",
    "pass_contract",
    "fixed_dims",
    "conformance",
    "payloads",
)

_extra: list[Oracle] = []
#: The built-in oracles, imported at the first :func:`oracles` call (asked several times per cell).
_builtin: list[Oracle] = []


def oracles(kind: str | None = None) -> list[Oracle]:
    """Every registered oracle (those judging ``kind`` cells when given), in report order."""
    if not _builtin:
        _builtin.extend(importlib.import_module(f"passcheck.oracles.{name}").ORACLE for name in BUILTIN)
    return [o for o in _builtin + _extra if kind is None or kind in o.kinds]


def ids() -> list[str]:
    """The names a test may select oracles by: every id and every ``reports_as``."""
    return list(dict.fromkeys(x for o in oracles() for x in (o.id, o.reports_as)))


@contextlib.contextmanager
def registered(oracle: Oracle) -> Iterator[Oracle]:
    """Apply ``oracle`` too for the duration of the block.

    Raises:
        PasscheckError: an oracle with this id is already registered.
    """
    if oracle.id in {o.id for o in oracles()}:
        raise PasscheckError(f"oracle id {oracle.id!r} is already registered")
    _extra.append(oracle)
    try:
        yield oracle
    finally:
        _extra.remove(oracle)


def observes(model) -> dict[str, list[str]]:
    """Oracle id → the main-graph values of ``model`` whose data it reads (see Oracle.observes)."""
    return {o.id: list(o.observes(model)) for o in oracles()}


def observes_shapes(model) -> dict[str, list[str]]:
    """Oracle id → the main-graph tensors of ``model`` whose shape and element type only it reads
    (``observes_shapes``, optional in the contract)."""
    return {o.id: list(ask(model)) for o in oracles() if (ask := getattr(o, "observes_shapes", None))}


def coverage(run) -> dict:
    """What the oracles that count their own coverage (an optional ``coverage(run)`` in the
    contract) say about one run, merged: key → counts (e.g. ``spec_rules``)."""
    out: dict = {}
    for o in oracles(INPUT if run.pass_id == "input" else PASS):
        if (part := getattr(o, "coverage", None)) is not None:
            out.update(part(run))
    return out


def judge(cells: Cells) -> tuple[dict[str, list[Finding]], dict[str, dict[str, str]]]:
    """Apply every oracle of ``cells.kind``: (form → findings, form → unchecked part → why)."""
    findings: dict[str, list[Finding]] = {r.form: [] for r in cells.runs}
    unchecked: dict[str, dict[str, str]] = {r.form: {} for r in cells.runs}
    for oracle in oracles(cells.kind):
        for f in oracle.judge(cells):
            findings[f.form].append(f)
        for form, parts in oracle.unchecked(cells).items():
            unchecked[form].update(parts)
    return findings, unchecked
