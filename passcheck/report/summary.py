"""Shared shaping of results for the human-readable renderers: verdict labels and grid."""

from __future__ import annotations

from collections.abc import Iterable

from passcheck.records import CellResult

ABBREV = {
    "wrong-result": "wrong",
    "annotation-violated": "annot",
    "invalid-model": "invalid",
    "validity-disagreement": "disagree",
    "rejected": "rejected",
    "missed-optimization": "missed-opt",
    "less-precise": "less-precise",
    "expectation-failed": "expect",
}


def label(cell: CellResult) -> str:
    """Short text for a grid cell: ``ok``, finding kinds, ``known``, ``skip``, ``n/a``."""
    v = cell.verdict
    if v == "findings":
        return ",".join(sorted({ABBREV.get(f.kind, f.kind) for f in cell.findings if not f.expected}))
    return {"ok": "ok", "expected": "known", "skipped": "skip", "unavailable": "n/a"}.get(v, v)


def grid(cells: Iterable[CellResult]) -> tuple[list[str], dict[tuple[str, str, str], dict[str, CellResult]]]:
    """(pass ids in first-seen order, {(case, form, env): {pass: cell}})."""
    passes: dict[str, None] = {}
    rows: dict[tuple[str, str, str], dict[str, CellResult]] = {}
    for c in cells:
        passes.setdefault(c.pass_id)
        rows.setdefault((c.case, c.form, c.env), {})[c.pass_id] = c
    return list(passes), rows


def counts(cells: Iterable[CellResult]) -> dict[str, int]:
    out = {"cells": 0, "unexpected": 0, "expected": 0, "skipped": 0, "unavailable": 0}
    for c in cells:
        out["cells"] += 1
        out["unexpected"] += sum(not f.expected for f in c.findings)
        out["expected"] += sum(f.expected for f in c.findings)
        out["skipped"] += c.status == "skipped"
        out["unavailable"] += c.status == "unavailable"
    return out
