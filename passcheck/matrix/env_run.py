"""One environment's share of the matrix: its cells run through workers, one worker at a time
(:func:`_run_env`). A worker that dies or hangs leaves cells unreported; the unit it announced last
is re-run alone in a fresh worker and only a death that recurs there is a verdict on those cells,
within a death budget per environment (:func:`_death_budget`); beyond it, or when the environment
cannot run passcheck at all, the cells left are recorded ``unchecked`` or ``unavailable`` with the
reason, never silently dropped. :mod:`passcheck.matrix.runner` runs one of these per environment.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from passcheck._procs import Children, Stopped
from passcheck.matrix import create, plan
from passcheck.matrix.envs import EnvSpec
from passcheck.matrix.launch import STARTUP_SECONDS, Recorder, run_worker
from passcheck.records import CellResult, Finding

Key = tuple[str, str, str, str]


class _Asked(Protocol):
    """What one environment's run reads of the matrix's :class:`~passcheck.matrix.runner.Options`."""

    out: Path
    source: Path
    cache: Path | None
    timeout: float
    cases_from: Sequence[str]
    repro_env: dict[str, str]


SPARE_DEATHS = 8


_UNREPORTED = "the worker finished without reporting this cell (a passcheck bug, not the pass's)"


@dataclasses.dataclass
class _Batch:
    """Cells for one worker; ``confirm``: the marker of the death this batch re-runs alone to
    confirm (``()``: a death before any case)."""

    cells: list[Key]
    confirm: tuple[str, ...] | None = None


def _run_env(
    spec: EnvSpec,
    units: list[plan.Unit],
    cases: list[plan.ModelCase],
    opts: _Asked,
    rec: Recorder,
    children: Children,
    tmp: Path,
    ready: dict[str, create.Env] | None = None,
) -> None:
    """Run every cell of ``units`` in ``spec``'s environment, one worker at a time; ``ready`` (if given) gets the
    created environment under ``spec.id`` (what runs once per environment after the cells reads it there).

    A worker that dies or hangs leaves cells unreported. Those of the unit it was in (its last
    ``case`` / ``pass`` marker) are re-run alone in a fresh worker, the others in another: only a
    death that recurs there is a verdict on those cells (a finding with the signal or exit code
    and the worker's last stderr lines; before any pass of the case ran, the input cells get it
    and the pass cells are ``unchecked``). Beyond the death budget, unreported cells are
    ``unchecked`` with the reason. A worker that cannot run passcheck makes the environment unusable.
    """
    remaining: dict[Key, plan.Unit] = {k: u for u in units for k in u.cells()}
    repro_env = opts.repro_env.get(spec.id, spec.id)
    rec.progress.status(spec.id, "creating environment")
    try:
        env = create.ensure(spec, opts.source, cache=opts.cache, children=children, tmp=tmp)
    except Stopped:
        return
    except create.EnvCreateError as exc:
        if children.stopped:  # uv was killed by the interrupt: not the environment's fault
            return
        _unusable(spec.id, {}, f"environment not created: {exc}", remaining, rec, repro_env)
        return
    if ready is not None:
        ready[spec.id] = env
    jobs_dir = opts.out / "jobs"
    jobs_dir.mkdir(exist_ok=True)
    by_case = {c.id: c for c in cases}
    queue = [_Batch(list(remaining))]
    deaths, budget = 0, _death_budget(len({k[0] for k in remaining}))
    while queue and not children.stopped:
        batch = queue.pop(0)
        cells = [k for k in batch.cells if k in remaining]
        if not cells:
            continue
        job = {
            "env": spec.id,
            "repro_env": repro_env,
            "models": str((opts.out / "models").resolve()),
            "timeout": opts.timeout,
            "cases_from": [str(Path(p).resolve()) for p in opts.cases_from],
            "cases": _job_cases(cells, by_case),
        }
        job_file = jobs_dir / f"{spec.id}.json"
        job_file.write_text(json.dumps(job), encoding="utf-8")
        rec.progress.status(
            spec.id, "starting worker" if batch.confirm is None else "re-running what a dead worker left"
        )
        try:
            ex = run_worker(env, job_file, opts.out, opts.timeout, rec, remaining, children, tmp)
        except Stopped:
            return
        if children.stopped:  # interrupted: what was not reported stays missing (--resume runs it)
            return
        lost = [k for k in cells if k in remaining]
        if (ex.status == "error" and not ex.marker) or not ex.saw_env:
            _unusable(
                spec.id,
                ex.versions,
                ex.detail if ex.status == "error" else f"the worker did not start: {ex.detail}",
                remaining,
                rec,
                repro_env,
            )
            return
        if ex.status == "error":  # an import failed inside a unit: its cells cannot be checked here, the others may
            deaths += 1
            scope = [k for k in lost if _in(k, ex.marker)]
            for key in scope if scope and deaths <= budget else lost:
                _give_up(
                    key,
                    "crashed",
                    f"not checked: while running {_where(ex.marker)}: {ex.detail}",
                    rec,
                    remaining,
                    repro_env,
                )
            queue.insert(0, _Batch([k for k in lost if k in remaining]))
            continue
        if ex.status == "done":
            for key in lost:
                _give_up(key, "crashed", _UNREPORTED, rec, remaining, repro_env)
            continue
        if not lost:
            continue
        deaths += 1
        where = _where(ex.marker)
        limit = opts.timeout if ex.marker else max(opts.timeout, STARTUP_SECONDS)
        what = f"no result within {limit:g} s" if ex.status == "timeout" else f"the worker died ({ex.detail})"
        scope = [k for k in lost if _in(k, ex.marker)]
        rest = [k for k in lost if k not in scope]
        if batch.confirm is not None and batch.confirm == (ex.marker or ()):
            if not ex.marker:  # dies again before any case: passcheck cannot run there
                _unusable(
                    spec.id, ex.versions, f"the worker dies before running any case: {what}", remaining, rec, repro_env
                )
                return
            text = f"{what} while running {where} in {spec.id}, again when re-run alone"
            for key in scope:
                if len(ex.marker) > 1 or key[2] == plan.INPUT:
                    rec.cell(_lost(key, ex.status, text, repro_env))
                    del remaining[key]
                else:
                    _give_up(key, ex.status, f"not run: {text}", rec, remaining, repro_env)
            queue.insert(0, _Batch(rest))
        elif deaths > budget:
            for key in lost:
                _give_up(
                    key,
                    ex.status,
                    f"not checked: {what} while running {where} in {spec.id}, and the environment's "
                    f"worker died {deaths} times (no re-run beyond {budget})",
                    rec,
                    remaining,
                    repro_env,
                )
        else:  # re-run: the unit it died in alone (a second death there is the verdict), the rest in a fresh worker
            queue[:0] = [b for b in (_Batch(scope, confirm=ex.marker or ()), _Batch(rest)) if b.cells]


def _death_budget(cases: int) -> int:
    """Worker deaths an environment running ``cases`` cases may have before the cells a death
    leaves are given up: a death and its confirmation per case, and :data:`SPARE_DEATHS`."""
    return SPARE_DEATHS + 2 * cases


def _in(key: Key, marker: tuple[str, ...] | None) -> bool:
    """Whether ``key`` belongs to the unit ``marker`` names (case, or case and pass; None: any)."""
    return not marker or (key[0] == marker[0] and (len(marker) == 1 or key[2] == marker[1]))


def _where(marker: tuple[str, ...] | None) -> str:
    if not marker:
        return "no case yet"
    return f"pass {marker[1]} on case {marker[0]}" if len(marker) > 1 else f"case {marker[0]} (before any pass ran)"


def _unusable(
    env_id: str, versions: dict[str, Any], reason: str, remaining: dict[Key, plan.Unit], rec: Recorder, repro_env: str
) -> None:
    """The environment cannot run passcheck: its record carries ``reason`` (the exit code is 2)
    and every cell still missing is ``unavailable``, not a finding."""
    rec.record({"type": "environment", "id": env_id, "versions": versions, "error": reason})
    for key in list(remaining):
        rec.cell(_lost(key, "unavailable", f"{env_id} is unusable: {reason}", repro_env))
        del remaining[key]


def _give_up(
    key: Key, status: str, reason: str, rec: Recorder, remaining: dict[Key, plan.Unit], repro_env: str
) -> None:
    """Record a cell that was not checked: ``unchecked`` with ``reason``, no finding."""
    cell = _lost(key, "unavailable", reason, repro_env)
    cell.status, cell.unchecked = status, {"cell": reason}
    rec.cell(cell)
    del remaining[key]


def _job_cases(keys: Sequence[Key], by_case: dict[str, plan.ModelCase]) -> list[dict[str, Any]]:
    cells: dict[str, list[list[str]]] = {}
    for case, form, pass_id, _env in keys:
        cells.setdefault(case, []).append([pass_id, form])
    return [
        {
            "id": c,
            "forms": by_case[c].forms,
            "passes": list(by_case[c].passes),
            "cells": cl,
            **({"meta": by_case[c].meta} if by_case[c].meta is not None else {}),
        }
        for c, cl in cells.items()
    ]


def _lost(key: Key, status: str, reason: str, repro_env: str) -> CellResult:
    """A cell the worker never reported: unavailable (no finding), or crashed/timeout (a finding)."""
    case, form, pass_id, env = key
    repro = f"passcheck matrix --env {shlex.quote(repro_env)} --case {shlex.quote(case)} --pass {shlex.quote(pass_id)}"
    findings = (
        []
        if status == "unavailable"
        else [
            Finding(
                "rejected", "isolation", case, form, pass_id, reason, env=env, repro=repro, details={"status": status}
            )
        ]
    )
    return CellResult(case, form, pass_id, status, env=env, error=reason, findings=findings)
