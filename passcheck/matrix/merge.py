"""Join shard outputs (``--out`` folders of ``passcheck matrix --shard I/N``) into one report,
refusing what is not whole: every folder must come from the same plan (``plan.json``'s hash
over the cell keys, model bytes and pins) and together hold every shard, each complete."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from passcheck.errors import PasscheckError
from passcheck.records import CellResult


def merge(
    dirs: Sequence[str | Path], *, allow_partial: bool = False
) -> tuple[list[CellResult], dict[str, Any], dict[str, Any]]:
    """Cells of every folder (one per key; a finished cell beats a crashed/timeout one; judged
    across environments by :mod:`passcheck.matrix.cross_env`), environments and plan metadata
    (environments in first-seen order, shards listed; with
    ``allow_partial``, ``partial`` holds the reason the set is not whole, else it is absent).

    Raises:
        PasscheckError: a folder has no report; two shards ran different model bytes; or,
            unless ``allow_partial``, the folders are of different plans, a plan's shard is
            missing, or a shard holds fewer cells than planned.
    """
    from passcheck.matrix import cross_env, report

    cells: dict[tuple, CellResult] = {}
    envs: dict[str, Any] = {}
    meta: dict[str, Any] = {"environments": [], "shards": [], "models": {}}
    plans: list[tuple[Path, dict[str, Any], int]] = []
    for d in dirs:
        p = Path(d)
        if not ((p / "report.json").is_file() or (p / "results.jsonl").is_file()):
            raise PasscheckError(
                f"{p}: no report.json or results.jsonl, no hunt-state.json; give the --out folders of "
                "'passcheck matrix' or of 'passcheck hunt --shard'"
            )
        got, e, m = report.load(p)
        plans.append((p, m.get("plan") or {}, len({c.key for c in got})))
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
                raise PasscheckError(
                    f"{p}: case {case} was built into different model bytes than in an earlier folder; "
                    "run every shard from the same commit"
                )
    problem = wholeness(plans)
    if problem and not allow_partial:
        raise PasscheckError(f"{problem}; merge every shard of one 'passcheck matrix' plan, or pass --allow-partial")
    first = plans[0][1] if plans else {}
    meta["plan"] = {k: first.get(k) for k in ("hash", "shards", "cells")}
    if problem:
        meta["partial"] = problem
    return cross_env.judge(list(cells.values())), envs, meta


def wholeness(plans: Sequence[tuple[Path, dict[str, Any], int]]) -> str:
    """Why (folder, plan record, cells found) triples are not one whole plan, or ``""``."""
    hashes: dict[str, list[str]] = {}
    for p, plan, _ in plans:
        hashes.setdefault((plan.get("hash") or "")[:12] or "none recorded", []).append(str(p))
    if len(hashes) > 1:
        return "mismatched plans: " + "; ".join(f"plan {h} in {', '.join(ps)}" for h, ps in hashes.items())
    if not plans or not plans[0][1].get("hash"):
        return "no plan recorded in " + ", ".join(str(p) for p, _, _ in plans)
    merged = [str(p) for p, plan, _ in plans if not plan.get("shard")]
    if merged:
        return "not shard outputs (already merged?): " + ", ".join(merged)
    count = plans[0][1]["shards"]
    have = {plan["shard"] for _, plan, _ in plans}
    missing = [f"{i}/{count}" for i in range(1, count + 1) if i not in have]
    if missing:
        return (
            f"missing shard(s) {', '.join(missing)} of plan {plans[0][1]['hash'][:12]} ({plans[0][1]['cells']} cells)"
        )
    complete = {plan["shard"] for _, plan, n in plans if n >= plan["shard_cells"]}
    short = [
        f"{p} (shard {plan['shard']}/{count}: {n} of {plan['shard_cells']} cells)"
        for p, plan, n in plans
        if plan["shard"] not in complete
    ]
    if short:
        return "incomplete shard(s): " + ", ".join(short)
    return ""
