"""A matrix's verdict: known findings per environment (``--baseline``), the baseline to accept
the current state (``--write-baseline``), notes for the reports, and the exit code shared by
``passcheck matrix`` and ``passcheck merge``."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from passcheck.records import CellResult


def env_order(cells: Iterable[CellResult], environments: Iterable[str] = ()) -> list[str]:
    """Environment ids: the given order first, then any others in order of appearance."""
    seen = dict.fromkeys(environments)
    for c in cells:
        seen.setdefault(c.env)
    return list(seen)


def ran_envs(cells: Sequence[CellResult], order: Sequence[str]) -> list[str]:
    """Environment ids that produced at least one cell, plan order first."""
    seen = {c.env for c in cells}
    return [e for e in env_order(cells, order) if e in seen]


def apply_baseline(cells: Sequence[CellResult], path: str | Path, environments: Sequence[str]) -> dict[str, Any]:
    """Mark the findings ``path`` knows as expected (earlier matches forgotten) → the report's
    ``baseline`` record: the file and, per entry, envs where it occurs / is fixed / did not run.

    Raises:
        PasscheckError: the baseline cannot be read (see passcheck.report.baseline.load).
    """
    from passcheck.report import baseline

    known = baseline.load(path)
    baseline.reset(cells)
    baseline.apply(cells, known)
    return {"file": str(path), "entries": [s.to_json() for s in baseline.status(cells, known, environments)]}


def write_baseline(path: str | Path, cells: Sequence[CellResult], environments: Sequence[str]) -> None:
    """Write every finding of ``cells`` (and every cell's unchecked parts) as a baseline: one entry per id, with ``envs``
    where it occurs unless it occurs in every environment of ``environments``; the reasons of
    the entries already in ``path`` are kept."""
    from passcheck.report.baseline import from_cells, previous_entries
    from passcheck.report.json_report import atomic_write

    atomic_write(path, from_cells(cells, environments=environments, previous=previous_entries(path)))


def notes(meta: dict[str, Any]) -> list[str]:
    """One line per thing a reader must know beside the table: partial merge, baseline entries
    fixed somewhere or not run anywhere (those the run could have seen; the rest counted in one line)."""
    out = []
    if meta.get("partial"):
        out.append(f"PARTIAL: {meta['partial']}")
    entries = (meta.get("baseline") or {}).get("entries", [])
    outside = 0
    for e in entries:
        if e["fixed"]:
            still = f" (still on {', '.join(e['occurs'])})" if e["occurs"] else ""
            out.append(f"baseline entry fixed on {', '.join(e['fixed'])}{still}: {e['id']}")
        elif not e["occurs"] and e["not_run"] and not e.get("in_selection", True):
            outside += 1  # a subset run: not news, one count line below
        elif not e["occurs"] and e["not_run"]:
            out.append(f"baseline entry not run in any of its environments ({', '.join(e['not_run'])}): {e['id']}")
    if outside:
        out.append(
            f"{outside} baseline entries outside this run's selection "
            "(cases, forms, passes or environments it did not run)"
        )
    if entries:
        used = sum(bool(e["occurs"]) for e in entries)
        out.append(f"baseline {meta['baseline']['file']}: {used} of {len(entries)} entries still occur")
    return out


def exit_code(cells: Sequence[CellResult], environments: dict[str, Any], *, exit_zero: bool = False) -> int:
    """2 when an environment could not be used (its cells were not checked), else 1 on an
    unexpected finding or an ``unchecked`` cell unless ``exit_zero``, else 0."""
    broken = [e for e, v in environments.items() if (v or {}).get("error")]
    if broken:
        print(
            f"passcheck: error: environment(s) {', '.join(broken)} could not be used (see above); fix the pins file",
            file=sys.stderr,
        )
        return 2
    if exit_zero:
        return 0
    from passcheck.records import exit_code as cells_exit_code

    return cells_exit_code(cells)
