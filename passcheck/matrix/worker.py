"""The worker: runs inside one pinned environment and streams one JSON line per result.

``python -m passcheck.matrix.worker build --out DIR [--case G]… [--pass P]… [--cases-from P]…``
    builds the model bytes (when the parent has no onnx).
``python -m passcheck.matrix.worker run JOB.json``
    evaluates the job's cells on the shipped bytes (never rebuilt here).
``python -m passcheck.matrix.worker serve JOB.json``
    the long-lived form (``hunt --env``): sends ``environment`` once, then reads one job a line on
    stdin (``{"models", "cases", "cases_from"}``; the file's ``env``, ``timeout`` and ``cases_from``
    hold for all) and answers each as ``run`` does, ending it with ``done``; exits at end of input.
    Its pass worker, session and imports stay up across jobs, and a model's bytes and load check
    are kept by sha256, so bytes already seen are neither read nor loaded again.

Protocol (stdout, one JSON object a line; anything the tools print goes to stderr):
``environment`` (exact tool versions) first, then ``case`` / ``pass`` markers before work starts
on them (so the parent knows which cells a crash or hang cost; ``pass`` ``input`` before the forms
themselves are judged), a ``step`` line as each engine step starts (a form's run, a pass, its
output's run: the parent's watchdog bounds the time between lines), ``cell`` records
(CellResult.to_json()), and ``done``. The pass worker is started before the first case marker. When an import
fails (a missing or broken dependency) it sends ``{"type": "error", "kind", "message"}`` and
exits 2: kind ``environment`` before any case started (passcheck cannot run there), ``unit``
during one (the cells of the last marker cannot be checked there).

Job file: ``{"env": ID, "repro_env": "--env value", "models": DIR, "cases_from": [...],
"cases": [{"id", "forms": {form: {"file", "sha256"}}, "passes": [...], "cells": [[pass, form], ...]}]}``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from passcheck.session import Session

_VERSION_ERROR = re.compile(r"IR version|[Oo]pset \d+|opset_import", re.I)


class _Protocol:
    """JSON lines on the original stdout; fd 1 is pointed at stderr so stray prints cannot corrupt it."""

    def __init__(self) -> None:
        sys.stdout.flush()
        self._out: IO[str] = os.fdopen(os.dup(1), "w", encoding="utf-8")
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        self.case_started = False

    def send(self, record: dict[str, Any]) -> None:
        self.case_started = self.case_started or record.get("type") == "case"
        self._out.write(json.dumps(record, default=str) + "\n")
        self._out.flush()


def ort_skip_reason(model_bytes: bytes) -> str | None:
    """Why this environment's onnxruntime cannot load a model of this IR version / opset, or None.

    Other load errors are not a skip: the ``input`` cell reports them as findings.
    """
    try:
        import onnxruntime as ort
    except ImportError:
        return None
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        ort.InferenceSession(model_bytes, opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - any load failure is inspected
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if _VERSION_ERROR.search(text):
            return f"onnxruntime {ort.__version__} cannot load this model: {text}"
    return None


def _ort_skip_reason_of(model) -> str | None:
    """:func:`ort_skip_reason` of a ModelProto (run in the isolated worker: a model that crashes
    onnxruntime at load costs that worker, not this one)."""
    return ort_skip_reason(model.SerializeToString())


class _Announcing:
    """The engine's executor: runs each pass, and every model run, in the isolated worker; the
    engine calls :meth:`starting` before each group (``input``, then each pass: preconditions,
    runs, oracles), which tells the parent, so a death or hang here is charged to that group."""

    def __init__(self, isolated, proto: _Protocol, case_id: str):
        self.isolated, self.proto, self.case_id = isolated, proto, case_id
        self.run_model, self.call = isolated.run_model, isolated.call

    def starting(self, pass_id: str) -> None:
        self.proto.send({"type": "pass", "case": self.case_id, "pass": pass_id})

    def on_step(self, what: str) -> None:
        """A ``step`` line per engine step (a form's run, a pass, its output's run): the parent's
        watchdog bounds the time between lines, each step's jobs being bounded here by the
        isolated worker's own limit."""
        self.proto.send({"type": "step", "case": self.case_id, "what": what})

    def __call__(self, adapter, model, workdir):
        return self.isolated(adapter, model, workdir)


def run_job(job: dict[str, Any], proto: _Protocol) -> None:
    from passcheck._versions import environment
    from passcheck.cases import load_path, registry
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.session import Session

    env = job["env"]
    proto.send({"type": "environment", "id": env, "versions": environment(), "python": sys.executable})
    for p in job.get("cases_from", ()):
        load_path(p)
    reg = registry()
    # Inside the environment too, each pass and each model run gets its own worker process: a pass
    # that segfaults costs its own cell, not every form of the case. Its limit stays below the
    # parent's watchdog, which only has to catch a stuck environment.
    with (
        IsolatedExecutor(
            timeout=0.8 * float(job.get("timeout") or 300.0), preload=job.get("cases_from", ())
        ) as isolated,
        Session(env=env, executor=isolated) as session,
    ):  # closing it stops its worker and what the passes started
        isolated.ready()  # its start is this worker's start (STARTUP_SECONDS), not the first case's
        _run_cases(job, proto, reg, session)
    proto.send({"type": "done"})


def serve(setup: dict[str, Any], proto: _Protocol, lines: IO[str]) -> None:
    """Answer each job line of ``lines`` in one session (see the module docs: ``serve``)."""
    from passcheck._versions import environment
    from passcheck.cases import load_path, registry
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.session import Session

    proto.send({"type": "environment", "id": setup["env"], "versions": environment(), "python": sys.executable})
    for p in setup.get("cases_from", ()):
        load_path(p)
    seen = _Seen()
    with (
        IsolatedExecutor(
            timeout=0.8 * float(setup.get("timeout") or 300.0), preload=setup.get("cases_from", ())
        ) as isolated,
        Session(env=setup["env"], executor=isolated) as session,
    ):
        isolated.ready()
        for line in lines:
            if not line.strip():
                continue
            job = {**setup, **json.loads(line)}
            for p in job.get("cases_from", ()):
                load_path(p)
            _run_cases(job, proto, registry(), session, seen)
            proto.send({"type": "done"})


def _run_cases(job: dict[str, Any], proto: _Protocol, reg, session: Session, seen: _Seen | None = None) -> None:
    """Evaluate the job's cells; ``seen`` (``serve``): model bytes and load checks kept by sha256."""
    from passcheck._versions import tool_version
    from passcheck.engine import Subject
    from passcheck.engine.subject import loaded_reference
    from passcheck.records import INPUT, CellResult

    models = Path(job["models"])
    onnx_version = tool_version("onnx")
    for entry in job["cases"]:
        if entry.get("meta") is not None and "onnx-node" in entry["meta"]:  # the parent's tests, data and all
            from passcheck import nodetests

            case = nodetests.shipped_case(entry["id"], entry["meta"]["onnx-node"])
        elif entry.get("meta") is not None:  # generated under the parent's onnx: never regenerated here
            from passcheck.generate import shipped_case

            case = shipped_case(entry["id"], entry["meta"])
        else:
            case = _case_here(reg, entry)
        proto.send({"type": "case", "case": case.id})
        cache = seen if seen is not None else _Seen()  # run: this case's bytes only
        data = {name: cache.read(models, f) for name, f in entry["forms"].items()}
        sha = {name: hashlib.sha256(b).hexdigest() for name, b in data.items()}
        for name, f in entry["forms"].items():
            if sha[name] != f["sha256"]:
                raise RuntimeError(
                    f"{models / f['file']}: sha256 {sha[name]} differs from the manifest's {f['sha256']}"
                )
        import onnx

        if sha["common"] not in cache.checks:
            cache.checks[sha["common"]] = _isolated_skip_reason(session.executor, data["common"])
        skip = case.skip_reason(onnx_version) or cache.checks[sha["common"]]
        forms = {name: (None if skip else onnx.load_from_string(b)) for name, b in data.items()}
        wanted = {(p, f) for p, f in entry["cells"]}
        repro = (
            f"passcheck matrix --env {shlex.quote(job.get('repro_env', session.env))} --case {shlex.quote(case.id)} "
            "--pass {pass}"
        )
        subject = Subject(
            id=case.id,
            forms=forms,
            bindings=case.bindings,
            feeds=case.feeds,
            expect=case.expect,
            parity=case.parity,
            rtol=case.rtol,
            atol=case.atol,
            passes=case.passes,
            repro=repro,
            skip=skip,
        )
        if not skip:  # fixed feeds and the outputs the case states (onnx-node): as Subject.from_case reads them
            subject.feed_sets, subject.expected = loaded_reference(case)

        def on_cell(cell, _sha=sha) -> None:
            cell.model_sha256 = _sha[cell.form]
            proto.send(cell.to_json())

        session.on_cell = on_cell
        session.skip_cells = lambda _case, form, pid, _w=wanted: (pid, form) not in _w

        def not_here(pid: str, why: str, _id=case.id, _forms=tuple(forms), _w=wanted) -> None:
            for form in _forms:
                if (pid, form) in _w:
                    on_cell(CellResult(_id, form, pid, "unavailable", env=session.env, error=why))

        # none left: the forms alone (an empty list would mean the case's own passes)
        here = _passes_here(entry["passes"], not_here) or [INPUT]
        session.evaluate(subject, here, executor=_Announcing(session.executor, proto, case.id))


def _passes_here(pass_ids: list[str], unavailable: Callable[[str, str], object]) -> list[str]:
    """The ids of ``pass_ids`` this environment's passcheck defines; ``unavailable(id, reason)`` is called for
    each other one. The parent checked every id against its own registry (``plan.build_models``), so an id unknown
    here is a pass whose tool this environment does not install (``onnx-ir:*`` where no onnx-ir is installed): its
    cells are ``unavailable``, and the case's other passes still run. Raising instead would kill the worker and
    lose every cell of the case in this environment."""
    from passcheck.errors import UnknownIdError
    from passcheck.passes import get_pass
    from passcheck.records import INPUT

    here = []
    for pid in pass_ids:
        if pid == INPUT:  # the forms themselves, judged in every environment
            here.append(pid)
            continue
        try:
            get_pass(pid)
        except UnknownIdError as e:
            unavailable(pid, f"this environment defines no pass {pid!r} (its tool is not installed here): {e}")
        else:
            here.append(pid)
    return here


def _case_here(reg, entry: dict[str, Any]):
    """The registry's case of ``entry``, or, when this environment's library has no case of that id, a stand-in
    whose every cell is ``skipped`` with the reason: a family gated per installed tool (``contrib/*``,
    ``contrib-static/*``, ``interior/*``: an op or kernel this onnxruntime lacks, a verdict its gate gives otherwise)
    registers other ids in each environment. The parent's bytes are still checked against the manifest."""
    import types

    from passcheck.errors import UnknownIdError

    try:
        return reg.get(entry["id"])
    except UnknownIdError:
        why = (
            f"this environment's case library has no case {entry['id']!r} (a family built per installed tool version "
            "registers other ids here)"
        )
        return types.SimpleNamespace(
            id=entry["id"],
            skip_reason=lambda _onnx_version, _why=why: _why,
            bindings=({},),
            feeds=None,
            expect=(),
            parity=frozenset({"status"}),
            rtol=None,
            atol=None,
            passes=tuple(entry.get("passes", ())),
        )


class _Seen:
    """Model bytes read and load checks made (:func:`ort_skip_reason`), by sha256: in ``serve``
    a form seen in an earlier job is neither read nor loaded again. At most :attr:`LIMIT` bytes
    are kept (past it, everything is dropped and read again when needed)."""

    LIMIT = 256 << 20

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}
        self.checks: dict[str, str | None] = {}
        self.size = 0

    def read(self, models: Path, form: dict[str, str]) -> bytes:
        if form["sha256"] not in self.data:
            data = (models / form["file"]).read_bytes()
            if self.size + len(data) > self.LIMIT:
                self.data.clear()
                self.checks.clear()
                self.size = 0
            self.data[form["sha256"]] = data
            self.size += len(data)
        return self.data[form["sha256"]]


def _isolated_skip_reason(isolated, data: bytes) -> str | None:
    """:func:`ort_skip_reason` in the isolated worker; None when loading crashed it (the
    ``input`` cells' runtime oracle then reports the crash on the form)."""
    import onnx

    from passcheck.errors import WorkerDied
    from passcheck.matrix.worker import _ort_skip_reason_of as by_name  # not __main__'s: the worker imports it by name

    try:
        return isolated.call(by_name, onnx.load_from_string(data))
    except WorkerDied:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m passcheck.matrix.worker")
    sub = parser.add_subparsers(dest="mode", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", required=True)
    b.add_argument("--case", action="append", default=[])
    b.add_argument("--pass", dest="passes", action="append", default=[])
    b.add_argument("--cases-from", action="append", default=[])
    r = sub.add_parser("run")
    r.add_argument("job")
    sv = sub.add_parser("serve")
    sv.add_argument("job")
    args = parser.parse_args(argv)
    proto = _Protocol()
    if args.mode == "build":
        from passcheck.errors import PasscheckError
        from passcheck.matrix.plan import build_models

        try:
            build_models(args.case, args.passes, Path(args.out), args.cases_from)
        except PasscheckError as exc:
            proto.send({"type": "error", "message": str(exc)})
            return 2
        proto.send({"type": "done"})
        return 0
    from passcheck.errors import WorkerStartError

    try:
        job = json.loads(Path(args.job).read_text(encoding="utf-8"))
        if args.mode == "serve":
            serve(job, proto, sys.stdin)
        else:
            run_job(job, proto)
    except (ImportError, WorkerStartError) as exc:  # a tool cannot be imported, or no pass worker starts, here
        import traceback

        traceback.print_exc()  # to the parent's log of this environment
        kind = (
            "unit" if proto.case_started else "environment"
        )  # the unit's cells, or every cell, cannot be checked here
        proto.send({"type": "error", "kind": kind, "message": f"{type(exc).__name__}: {exc}"})
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
