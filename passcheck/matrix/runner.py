"""Orchestrate the matrix: build the model bytes once, create environments, run one worker per
environment (``--jobs`` at a time), append every result to ``<out>/results.jsonl`` as it arrives.

The parent imports neither onnx nor onnxruntime unless it builds the models itself (when onnx is
importable here); otherwise the first environment builds them. A worker that crashes or hangs
is charged only with a death that recurs when the unit it announced last (``case`` / ``pass``
markers) is re-run alone in a fresh worker; the rest of that environment's cells are re-run in
another (see :mod:`passcheck.matrix.env_run`).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as futures_wait
from pathlib import Path
from typing import Any

from passcheck import interrupts
from passcheck._procs import Children
from passcheck.errors import PasscheckError
from passcheck.matrix import create, plan, reuse, schemas
from passcheck.matrix.env_run import SPARE_DEATHS, Key, _run_env  # noqa: F401 - SPARE_DEATHS, Key: re-exported
from passcheck.matrix.envs import EnvSpec
from passcheck.matrix.launch import Recorder, _Log, tmp_env
from passcheck.progress import Progress
from passcheck.records import CellResult
from passcheck.report.json_report import read_report
from passcheck.report.partial import PARTIAL

RESULTS = "results.jsonl"


@dataclasses.dataclass
class Options:
    """What ``passcheck matrix`` was asked to do (see the CLI for each flag)."""

    envs: Sequence[EnvSpec]
    out: Path
    source: Path
    cases: Sequence[str] = ()
    passes: Sequence[str] = ()
    cases_from: Sequence[str] = ()
    jobs: int = 2
    shard: tuple[int, int] = (1, 1)
    resume: bool = False
    timeout: float = 300.0
    cache: Path | None = None
    repro_env: dict[str, str] = dataclasses.field(default_factory=dict)  # env id → the --env text naming it
    progress: bool | str | None = (
        None  # passcheck.progress mode: None or 'auto' a bar on a terminal, plain lines otherwise
    )
    baseline: Path | None = None  # known findings (passcheck.report.baseline), applied per environment


@dataclasses.dataclass
class Outcome:
    """The run: every cell recorded in ``out`` (this run's and resumed ones), environments, timings."""

    cells: list[CellResult]
    environments: dict[str, dict[str, Any]]
    planned: int
    timings: dict[str, float]  # setup, total, first_cell (s from start), workers (summed worker process time)


INTERRUPT_REPORT_BYTES = 4 << 20


def run(opts: Options) -> Outcome:
    """Run the matrix; on KeyboardInterrupt (Ctrl-C, or SIGTERM under the CLI) in any phase the
    workers and uv are killed with every process they started, what arrived is kept (see
    :func:`finish_interrupted`), and the interrupt is re-raised. Workers and uv get a private TMPDIR, removed at the
    end whatever happened, so a killed pass leaves no temporary folder.

    Raises:
        PasscheckError: bad selection, the models could not be built, or another run is using ``out``.
    """
    out = opts.out
    made = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    lock = _hold(out)
    children = Children()
    tmp = Path(tempfile.mkdtemp(prefix="passcheck-matrix-"))
    try:
        return _run(opts, children, tmp)
    except PasscheckError:
        if made and not (out / RESULTS).exists():  # a usage error leaves no folder it made, and nothing was run
            shutil.rmtree(out, ignore_errors=True)
        raise
    except KeyboardInterrupt:
        children.stop()
        finish_interrupted(out, opts.baseline)
        raise
    finally:
        children.stop()
        shutil.rmtree(tmp, ignore_errors=True)
        lock.close()


def _hold(out: Path):
    """The open ``out/.matrix.lock``, held with an exclusive ``flock`` for the run: a second run on ``out`` would
    start by replacing ``results.jsonl``, and the cells the first writes after that would reach no report.

    Raises:
        PasscheckError: another process holds it.
    """
    from passcheck._locks import exclusive

    refusal = f"--out {out}: another passcheck matrix is using it; wait for it to end, or choose another folder"
    return exclusive(out / ".matrix.lock", refusal)


def _run(opts: Options, children: Children, tmp: Path) -> Outcome:
    t0 = time.perf_counter()
    out = opts.out
    results = out / RESULTS
    cases = _models(opts, children, tmp)
    ids = [s.id for s in opts.envs]
    all_units = plan.units(cases, ids)
    todo_units = plan.shard(all_units, *opts.shard)
    source = create.source_hash(opts.source)
    if not opts.resume:  # a second run on one --out keeps the cells whose inputs are unchanged
        kept = reuse.reusable(
            out,
            results,
            {c.id: {f: v["sha256"] for f, v in c.forms.items()} for c in cases},
            {s.id: s.pins_hash for s in opts.envs},
            source,
            [k for u in todo_units for k in u.cells()],
        )
        results.unlink(missing_ok=True)
        if kept:
            log = _Log(results)
            for rec in kept:
                log.write(rec)
            log.close()
            n = sum(r.get("type") == "cell" for r in kept)
            print(
                f"passcheck matrix: {n} cells kept from {results} (same model bytes, pins and passcheck source)",
                file=sys.stderr,
            )
    done = {c.key for c in read_report(results)[0]} if results.exists() else set()
    pending: dict[str, list[plan.Unit]] = {}
    for u in todo_units:
        left = tuple(f for f in u.forms if (u.case, f, u.pass_id, u.env) not in done)
        if left:
            pending.setdefault(u.env, []).append(dataclasses.replace(u, forms=left))
    planned = sum(len(u.forms) for u in todo_units)
    _write_plan(opts, cases, todo_units, all_units, source)
    progress = Progress(planned, planned - sum(len(u.forms) for us in pending.values() for u in us), opts.progress)
    rec = Recorder(results, progress, t0)
    specs = {s.id: s for s in opts.envs}
    timings = {"setup": time.perf_counter() - t0}
    pool = ThreadPoolExecutor(max_workers=max(1, opts.jobs))
    ready: dict[str, create.Env] = {}  # the environments the workers ran in, for the released-schema cells
    try:
        futures = [
            pool.submit(_run_env, specs[e], us, cases, opts, rec, children, tmp, ready) for e, us in pending.items()
        ]
        while futures_wait(futures, timeout=0.5).not_done:
            interrupts.check()  # the main thread waits here: an interrupt whose KeyboardInterrupt was lost
        for f in futures:
            f.result()
    except BaseException:
        children.stop()  # workers and uv die now; their threads see it and return
        pool.shutdown(wait=True, cancel_futures=True)
        rec.stream.close()
        progress.close()
        raise
    pool.shutdown(wait=True)
    # the released-schema oracle: once per environment and plan, when the selection asks for it
    if not children.stopped and opts.shard[0] == 1 and plan.wants_schemas(opts.cases):
        for cell in schemas.run(opts.envs, ready, opts.cache, children, tmp):
            rec.record(cell.to_json())
    rec.stream.close()
    progress.close()
    timings["total"] = time.perf_counter() - t0
    timings["first_cell"] = rec.first_cell if rec.first_cell is not None else float("nan")
    timings["workers"] = sum(rec.worker_seconds.values())
    cells, envs = finish(out, opts.baseline)
    return Outcome(cells, envs, planned, timings)


def finish(out: Path, baseline: Path | None = None, partial: str = "") -> tuple[list[CellResult], dict[str, Any]]:
    """Write report.json / report.xml / report.md from ``out/results.jsonl`` (last record of a
    cell wins; judged across environments by :mod:`passcheck.matrix.cross_env`), ``baseline``
    applied, each marked partial when ``partial`` says why the run is not
    whole; returns the cells and environments."""
    from passcheck.matrix import cross_env, report, verdict

    path = out / RESULTS
    cells, envs = read_report(path) if path.exists() else ([], {})
    cells = cross_env.judge(list({c.key: c for c in cells}.values()))
    meta = _read_json(out / "plan.json") or {}
    if partial:
        meta["partial"] = partial
    if baseline is not None:
        meta["baseline"] = verdict.apply_baseline(cells, baseline, [e["id"] for e in meta.get("environments", [])])
    envs = report.write_all(out, cells, envs, meta)
    return cells, envs


def finish_interrupted(out: Path, baseline: Path | None = None) -> None:
    """After an interrupt: every result that arrived is already in ``out/results.jsonl`` (flushed
    per record); the reports are written from it when that is quick (:data:`INTERRUPT_REPORT_BYTES`),
    else an earlier run's reports are removed and a line on stderr says where the results are
    (``--resume`` continues and writes the reports; ``passcheck merge`` reads results.jsonl). Written
    reports are marked partial (:data:`~passcheck.report.partial.PARTIAL`): the cells not reached are
    not in them."""
    path = out / RESULTS
    if path.is_file() and path.stat().st_size > INTERRUPT_REPORT_BYTES:
        for name in ("report.json", "report.xml", "report.md"):
            (out / name).unlink(missing_ok=True)  # not this run's
        print(
            f"passcheck matrix: the results so far are in {path} (reports not written: too many cells to write "
            f"promptly); run the same command with --resume to continue and write the reports",
            file=sys.stderr,
        )
        return
    finish(out, baseline, partial=PARTIAL)


def _models(opts: Options, children: Children, tmp: Path) -> list[plan.ModelCase]:
    models = opts.out / "models"
    if opts.resume and (models / "manifest.json").is_file():
        return plan.read_manifest(models)
    if importlib.util.find_spec("onnx") is not None:
        plan.build_models(opts.cases, opts.passes, models, opts.cases_from)
    else:  # no onnx here: the first environment builds the bytes
        env = create.ensure(opts.envs[0], opts.source, cache=opts.cache, children=children, tmp=tmp)
        cmd = [str(env.python), "-m", "passcheck.matrix.worker", "build", "--out", str(models.resolve())]
        for flag, values in (("--case", opts.cases), ("--pass", opts.passes), ("--cases-from", opts.cases_from)):
            for v in values:
                cmd += [flag, str(Path(v).resolve()) if flag == "--cases-from" else v]
        proc = children.popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=env.root, env=tmp_env(tmp)
        )
        stdout, stderr = proc.communicate()
        children.done(proc)
        errors = [json.loads(x)["message"] for x in stdout.splitlines() if '"error"' in x]
        if proc.returncode:
            raise PasscheckError(
                errors[0] if errors else f"building the models in {env.spec.id} failed: {stderr.strip()[-500:]}"
            )
    return plan.read_manifest(models)


def _write_plan(
    opts: Options, cases: list[plan.ModelCase], units: list[plan.Unit], all_units: list[plan.Unit], source: str
) -> None:
    """``out/plan.json``: environments, selection, this shard, model hashes, the passcheck source hash
    (:mod:`passcheck.matrix.reuse` keys on these), and ``plan`` (hash, shard count, cell counts) which
    ``passcheck merge`` checks for whole, matching shards."""
    from passcheck.report.json_report import atomic_write

    doc = {
        "environments": [
            {"id": s.id, "pins": list(s.pins), "pins_hash": s.pins_hash, "file": str(s.path)} for s in opts.envs
        ],
        "selection": {"cases": list(opts.cases), "passes": list(opts.passes)},
        "shard": f"{opts.shard[0]}/{opts.shard[1]}",
        "models": {c.id: {f: v["sha256"] for f, v in c.forms.items()} for c in cases},
        "source": source,
        "cells": sum(len(u.forms) for u in units),
        "plan": {
            "hash": plan.plan_hash(cases, all_units, {s.id: s.pins_hash for s in opts.envs}),
            "shard": opts.shard[0],
            "shards": opts.shard[1],
            "cells": sum(len(u.forms) for u in all_units),
            "shard_cells": sum(len(u.forms) for u in units),
        },
    }
    atomic_write(opts.out / "plan.json", json.dumps(doc, indent=1) + "\n")


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def default_jobs() -> int:
    return max(1, min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 8))
