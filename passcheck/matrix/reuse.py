"""A second ``passcheck matrix`` on one ``--out`` (without ``--resume``) keeps the cells already
written whose inputs are unchanged, instead of redoing every cell.

A cell is kept when its (case, form, pass, env) is in this run's plan, the form's model bytes hash
the same (``plan.json`` ``models``), the environment's pins hash the same (``environments``), the
passcheck source installed in the environments hashes the same (``source``,
:func:`passcheck.matrix.create.source_hash`), and it was checked (a cell ``unchecked``, e.g. by a
worker death under load, runs again). Anything else runs again; a ``plan.json`` without ``source``
(older passcheck) keeps nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from passcheck.records import CellResult


def reusable(
    out: Path,
    results: Path,
    models: dict[str, dict[str, str]],
    pins: dict[str, str],
    source: str,
    planned: Iterable[tuple[str, str, str, str]],
) -> list[dict[str, Any]]:
    """The records of ``results`` (``out``'s previous results.jsonl) to keep: cells as above and the
    ``environment`` records of environments that keep a cell, in file order (the last record of a cell wins).

    Args:
        models: case → form → sha256 of this run's model bytes.
        pins: env id → pins hash of this run's environments.
        source: hash of the passcheck source this run installs.
        planned: this run's cell keys (case, form, pass id, env).
    """
    try:
        old = json.loads((out / "plan.json").read_text(encoding="utf-8"))
        lines = results.read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError):
        return []
    if not isinstance(old, dict) or not source or old.get("source") != source:
        return []
    same_env = {e["id"] for e in old.get("environments", []) if pins.get(e.get("id")) == e.get("pins_hash")}
    old_models = old.get("models", {})
    wanted = set(planned)
    cells: dict[tuple, dict[str, Any]] = {}
    envs: dict[str, dict[str, Any]] = {}
    for line in lines:
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line torn by a kill
        if rec.get("type") == "environment" and rec.get("id") in same_env:
            envs[rec["id"]] = rec
        elif rec.get("type") == "cell":
            cell = CellResult.from_json(rec)
            sha = models.get(cell.case, {}).get(cell.form)
            cells.pop(cell.key, None)  # the last record of a cell decides
            if (
                cell.key in wanted
                and cell.env in same_env
                and sha is not None
                and old_models.get(cell.case, {}).get(cell.form) == sha
                and cell.verdict != "unchecked"
            ):
                cells[cell.key] = rec
    kept_envs = {k[3] for k in cells}
    return [envs[e] for e in envs if e in kept_envs] + list(cells.values())
