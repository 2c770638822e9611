"""Shared shaping of results for the human-readable renderers: verdict labels and grid."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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
    "spec-violation": "spec",
    "description-dropped": "described",
}


def label(cell: CellResult) -> str:
    """Short text for a grid cell: ``ok``, finding kinds, ``known``, ``skip``, ``n/a``."""
    v = cell.verdict
    if v == "findings":
        return ",".join(sorted({ABBREV.get(f.kind, f.kind) for f in cell.findings if not f.expected}))
    return {"ok": "ok", "expected": "known", "unchecked": "unchecked", "skipped": "skip", "unavailable": "n/a"}.get(
        v, v
    )


def grid(cells: Iterable[CellResult]) -> tuple[list[str], dict[tuple[str, str, str], dict[str, CellResult]]]:
    """(pass ids in first-seen order, {(case, form, env): {pass: cell}})."""
    passes: dict[str, None] = {}
    rows: dict[tuple[str, str, str], dict[str, CellResult]] = {}
    for c in cells:
        passes.setdefault(c.pass_id)
        rows.setdefault((c.case, c.form, c.env), {})[c.pass_id] = c
    return list(passes), rows


def counts(cells: Iterable[CellResult]) -> dict[str, int]:
    """Cells; unexpected and known findings; ``unchecked``: cells with a part not checked that no
    baseline entry accepts (the cells of the UNCHECKED lines; each fails the run); ``skipped``; ``unavailable``."""
    out = {"cells": 0, "unexpected": 0, "expected": 0, "unchecked": 0, "skipped": 0, "unavailable": 0}
    for c in cells:
        out["cells"] += 1
        # every cell with an UNCHECKED line the baseline does not accept, whatever else it holds: a
        # cell with an unexpected finding too has verdict "findings" but its unchecked parts are unchecked
        out["unchecked"] += bool(c.unchecked) and not c.unchecked_known
        out["unexpected"] += sum(not f.expected for f in c.findings)
        out["expected"] += sum(f.expected for f in c.findings)
        out["skipped"] += c.status == "skipped"
        out["unavailable"] += c.status == "unavailable" and c.verdict != "unchecked"  # a named pass: unchecked
    return out


def unavailable_reasons(cells: Iterable[CellResult]) -> list[dict[str, Any]]:
    """Why cells were ``n/a``: one ``{"pass", "reason", "cells"}`` per distinct pair, in first-seen
    order (the cells :func:`counts` calls unavailable; a pass the user named is an UNCHECKED line)."""
    out: dict[tuple[str, str], int] = {}
    for c in cells:
        if c.status == "unavailable" and c.verdict != "unchecked":
            key = (c.pass_id, c.error or "no reason recorded")
            out[key] = out.get(key, 0) + 1
    return [{"pass": p, "reason": r, "cells": n} for (p, r), n in out.items()]


def unavailable_lines(cells: Iterable[CellResult]) -> list[str]:
    """``PASS: REASON (N cells)`` per :func:`unavailable_reasons` entry."""
    return [
        f"{u['pass']}: {u['reason']} ({u['cells']} cell{'' if u['cells'] == 1 else 's'})"
        for u in unavailable_reasons(cells)
    ]


def skipped_lines(cells: Iterable[CellResult]) -> list[str]:
    """``case | env: REASON (N cells)`` per skipped case and reason (e.g. the installed onnx cannot build a
    form): the why of each ``skip`` in the grid, which the summary line only counts."""
    groups: dict[tuple[str, str, str], int] = {}
    for c in cells:
        if c.status == "skipped":
            key = (c.case, c.env, c.error or "no reason recorded")
            groups[key] = groups.get(key, 0) + 1
    return [f"{case} | {env}: {why} ({n} cell{'' if n == 1 else 's'})" for (case, env, why), n in groups.items()]


def form_against(finding) -> str:
    """``FORM vs OTHER`` for a finding that compares two forms (parity's ``other_form``), else ``FORM``: the
    cells a root cause also explains differ often by the other form alone."""
    other = (finding.details or {}).get("other_form")
    return f"{finding.form} vs {other}" if other else finding.form


#: The line under the summary when every cell was skipped or unavailable (exit 1: nothing was judged).
NOTHING_CHECKED = "NOTHING CHECKED: every cell was skipped or unavailable (why above); the run fails (exit 1)"


def unchecked_phrase(n: dict[str, int]) -> str:
    """``1 cell unchecked`` / ``N cells unchecked`` for :func:`counts`' result (cells, not annotations)."""
    return f"{n['unchecked']} cell{'' if n['unchecked'] == 1 else 's'} unchecked"


def unchecked_lines(cells: Iterable[CellResult]) -> list[str]:
    """One line per part of a cell that was not checked: ``case | form | pass | env: what: why``
    (`` (known: REASON)`` appended when a baseline entry accepts the cell's unchecked parts)."""
    return [
        f"{c.case} | {c.form} | {c.pass_id} | {c.env}: {what}: {why}"
        + (f" (known: {c.unchecked_known})" if c.unchecked_known else "")
        for c in cells
        for what, why in c.unchecked.items()
    ]


def _reason_kind(why: str) -> str:
    """A value-independent summary of why an annotated value was not checked."""
    for marker, kind in (
        ("never ran", "subgraph or function never ran"),
        ("reference evaluator could not", "the reference evaluator failed"),
        ("cannot expose", "engine cannot observe (subgraph or function)"),
        ("opaque", "opaque type"),
    ):
        if marker in why:
            return kind
    return why.split(" (")[0][:80]


def coverage_line(cells: Iterable[CellResult]) -> str:
    """Annotation coverage summed over cells: ``annotations: A annotated, C checked, U unobserved
    (n: reason, …)``; reasons grouped, most frequent first. '' when nothing was annotated."""
    total = {"annotated": 0, "checked": 0, "unobserved": 0, "unchecked": 0}
    reasons: dict[str, int] = {}
    for c in cells:
        for k in total:
            total[k] += int(c.coverage.get(k, 0) or 0)
        for why in (c.coverage.get("reasons") or {}).values():
            key = _reason_kind(why)
            reasons[key] = reasons.get(key, 0) + 1
    if not total["annotated"]:
        return ""
    shown = "; ".join(f"{n}: {why}" for why, n in sorted(reasons.items(), key=lambda kv: -kv[1])[:4])
    return (
        f"annotations: {total['annotated']} annotated, {total['checked']} checked, {total['unobserved']} unobserved, "
        f"{total['unchecked']} unchecked" + (f" ({shown})" if shown else "")
    )


def empty_outputs_line(cells: Iterable[CellResult]) -> str:
    """The outputs the numeric oracle compared by dtype and shape only because they held no element in any run
    (its coverage's ``empty_outputs``: a dim bound to 0): ``values: compared by dtype and shape only, no element in
    any run: y (2 cells)``. '' when there is none."""
    cells_of: dict[str, int] = {}
    for c in cells:
        for name in c.coverage.get("empty_outputs") or ():
            cells_of[name] = cells_of.get(name, 0) + 1
    if not cells_of:
        return ""
    shown = ", ".join(f"{name} ({n} cell{'s' * (n != 1)})" for name, n in sorted(cells_of.items()))
    return f"values: compared by dtype and shape only, no element in any run: {shown}"


def spec_rules_line(cells: Iterable[CellResult]) -> str:
    """The conformance oracle's rules summed over cells: ``spec rules: C checked, N not applicable
    (n: why, …)`` (a rule it could not decide: no static rank, an input not constant; names in the
    reasons folded so that alike reasons group). '' when no cell was judged."""
    import re

    checked = skipped = 0
    reasons: dict[str, int] = {}
    for c in cells:
        part = c.coverage.get("spec_rules") or {}
        checked += int(part.get("checked", 0) or 0)
        skipped += int(part.get("not_applicable", 0) or 0)
        for why in (part.get("reasons") or {}).values():
            key = re.sub(r"'[^']*'", "…", why)
            reasons[key] = reasons.get(key, 0) + 1
    if not checked and not skipped:
        return ""
    shown = "; ".join(f"{n}: {why}" for why, n in sorted(reasons.items(), key=lambda kv: -kv[1])[:3])
    return f"spec rules: {checked} checked, {skipped} not applicable" + (f" ({shown})" if shown else "")
