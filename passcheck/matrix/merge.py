"""Join shard outputs (``--out`` folders of ``passcheck matrix --shard I/N``) into one report."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from passcheck.errors import PasscheckError
from passcheck.records import CellResult


def merge(dirs: Sequence[str | Path]) -> tuple[list[CellResult], dict[str, Any], dict[str, Any]]:
    """Cells of every folder (one per key; a finished cell beats a crashed/timeout one),
    environments and plan metadata (environments in first-seen order, shards listed).

    Raises:
        PasscheckError: a folder has no report, or two shards ran different model bytes.
    """
    from passcheck.matrix import report

    cells: dict[tuple, CellResult] = {}
    envs: dict[str, Any] = {}
    meta: dict[str, Any] = {"environments": [], "shards": [], "models": {}}
    for d in dirs:
        p = Path(d)
        if not ((p / "report.json").is_file() or (p / "results.jsonl").is_file()):
            raise PasscheckError(f"{p}: no report.json or results.jsonl; give the --out folders of 'passcheck matrix'")
        got, e, m = report.load(p)
        for c in got:
            old = cells.get(c.key)
            if old is None or old.status in ("crashed", "timeout", "unavailable"):
                cells[c.key] = c
        envs.update({k: v for k, v in e.items() if v or k not in envs})
        known = {x["id"] for x in meta["environments"]}
        meta["environments"] += [x for x in m.get("environments", []) if x["id"] not in known]
        meta["shards"].append(m.get("shard", "1/1"))
        for case, forms in m.get("models", {}).items():
            if meta["models"].setdefault(case, forms) != forms:
                raise PasscheckError(f"{p}: case {case} was built into different model bytes than in an earlier folder; "
                                     "run every shard from the same commit")
    return list(cells.values()), envs, meta
