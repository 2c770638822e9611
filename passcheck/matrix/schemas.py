"""The released-schema oracle of a matrix run (:mod:`passcheck.oracles.schema_history`), once per environment.

Versioning.md (Operator versioning): the schema of a released (domain, op, since_version) never changes, so two onnx
releases that both define it must report the same type constraints, inputs, outputs and attributes; where they
differ, one release's checker and shape inference judge models of that schema wrongly. No model and no runtime is
needed, which is what a checker defect in an environment whose onnxruntime cannot load the opset lacks.

Each environment's interpreter is asked which onnx it imports now, and that onnx once for its table (``python -m
passcheck.oracles.schema_history``); the table is cached per onnx version under ``<cache>/schemas`` (a released
onnx reports the same schemas every time), but the cache never answers for an environment that was not asked: one
whose interpreter or onnx does not start gets an ``unchecked`` cell saying why (a verdict is a promise).

The reference is the newest onnx among the run's environments and the one imported here. Every environment with
an older onnx gets the cells of :func:`cells` (case :data:`CASE`, pass :data:`PASS`): one for the schemas equal to
the reference's, and one per schema that differs in any environment, with one ``schema-drift`` finding per
differing field; the reference's own environment gets none (there is nothing newer to judge it by). A run whose
``--case`` patterns do not match :data:`CASE` has none (:func:`passcheck.matrix.plan.wants_schemas`): add
``--case 'schemas/*'`` to a restricted run to judge them too.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck._procs import Children
from passcheck.matrix.create import Env
from passcheck.matrix.envs import EnvSpec
from passcheck.matrix.launch import tmp_env
from passcheck.matrix.plan import SCHEMAS_CASE
from passcheck.oracles.schema_history import Drift, drift, known_drift, table
from passcheck.records import NOT_RUN, CellResult, Finding

CASE = SCHEMAS_CASE
FORM = "every-domain"
PASS = "onnx:checker"
ORACLE = "schema_history"
KIND = "schema-drift"

#: (onnx version, table) of one environment or of the onnx imported here.
Table = tuple[str, dict[str, Any]]


def _version_key(version: str) -> tuple:
    from packaging.version import InvalidVersion, Version

    try:
        return (1, Version(version))
    except InvalidVersion:
        return (0, version)


def _cache_file(cache: Path, version: str) -> Path:
    return cache / "schemas" / f"onnx-{version}.json"


def local_table(cache: Path) -> Table | None:
    """The table of the onnx imported here (cached like an environment's), or None without onnx."""
    try:
        import onnx
    except ImportError:
        return None
    path = _cache_file(cache, onnx.__version__)
    if path.is_file():
        return onnx.__version__, json.loads(path.read_text(encoding="utf-8"))
    t = table()
    _write(path, t)
    return onnx.__version__, t


def _ask(env: Env, argv: list[str], children: Children, tmp: Path, timeout: float) -> tuple[str | None, str]:
    """``env``'s interpreter run with ``argv``: (its stdout, "") or (None, why it gave none)."""
    try:
        proc = children.popen(
            [str(env.python), *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=env.root,
            env=tmp_env(tmp),
        )
    except OSError as exc:  # no interpreter there
        return None, f"its interpreter {env.python} does not start ({exc.strerror or exc})"
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None, f"its interpreter gave no answer within {timeout:g} s"
    finally:
        children.done(proc)
    if proc.returncode:
        tail = (err.strip().splitlines() or ["no output"])[-1]
        return None, f"its interpreter exits {proc.returncode}: {tail}"
    return out, ""


def env_table(env: Env, cache: Path, children: Children, tmp: Path, timeout: float = 300.0) -> Table | str:
    """The table of the onnx ``env``'s interpreter imports now, or why there is none (a str).

    The interpreter is always asked which onnx it imports (``import onnx``): the table of that version is then read
    from the cache, else computed there (``python -m passcheck.oracles.schema_history``) and cached. A cached table
    never stands for an environment whose interpreter or onnx no longer starts: its cells could not be checked now.
    """
    out, why = _ask(env, ["-c", "import onnx, sys; sys.stdout.write(onnx.__version__)"], children, tmp, timeout)
    if out is None:
        return f"onnx does not import in {env.spec.id}: {why}"
    version = out.strip()
    path = _cache_file(cache, version)
    if path.is_file():
        return version, json.loads(path.read_text(encoding="utf-8"))
    out, why = _ask(env, ["-m", "passcheck.oracles.schema_history"], children, tmp, timeout)
    if out is None:
        return f"{env.spec.id} cannot report onnx {version}'s schemas: {why}"
    doc = json.loads(out)
    _write(_cache_file(cache, doc["onnx"]), doc["schemas"])
    return doc["onnx"], doc["schemas"]


def _write(path: Path, t: Mapping[str, Any]) -> None:
    from passcheck.report.json_report import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(t, sort_keys=True))


def _finding(env_id: str, d: Drift, version: str, reference: str, form: str) -> Finding:
    known = known_drift(d)
    if d.field.startswith("types:"):
        gone, added = sorted(set(d.old or ()) - set(d.new or ())), sorted(set(d.new or ()) - set(d.old or ()))
        what = "; ".join(
            x
            for x in (
                f"onnx {version} also allows {', '.join(gone)}" if gone else "",
                f"onnx {version} lacks {', '.join(added)}" if added else "",
            )
            if x
        )
    else:
        what = f"onnx {version} has {json.dumps(d.old)}, onnx {reference} {json.dumps(d.new)}"
    return Finding(
        kind=KIND,
        oracle=ORACLE,
        case=CASE,
        form=form,
        pass_id=PASS,
        message=f"{d.key} {d.field}: {what} (a released schema differs from onnx {reference}'s)",
        details={
            "schema": d.key,
            "field": d.field,
            "old": d.old,
            "new": d.new,
            "onnx": version,
            "reference": reference,
        },
        env=env_id,
        expected=bool(known),
        reason=known,
        repro=f"python -m passcheck.oracles.schema_history  # in {env_id}'s interpreter; compare with onnx {reference}",
    )


def _form(key: str) -> str:
    """``ai.onnx::Erf::13`` → ``ai.onnx.Erf-13``: a schema's own row (a form id, without the ``:`` of finding ids)."""
    domain, op, since = key.split("::")
    return f"{domain}.{op}-{since}"


def _cell(env_id: str, form: str, version: str, reference: str, findings: list[Finding], note: str) -> CellResult:
    return CellResult(
        case=CASE,
        form=form,
        pass_id=PASS,
        status="ok",
        env=env_id,
        versions={"onnx": version, "reference onnx": reference},
        findings=findings,
        notes={ORACLE: note},
    )


def _unchecked(env_id: str, version: str | None, reference: str | None, why: str) -> CellResult:
    """The cell :data:`FORM` of an environment whose onnx could not be asked now: ``unchecked`` (key
    :data:`~passcheck.records.NOT_RUN`) with why, whatever the cache holds for its pinned version."""
    return CellResult(
        case=CASE,
        form=FORM,
        pass_id=PASS,
        status="unavailable",
        env=env_id,
        error=why,
        versions={"onnx": version, "reference onnx": reference},
        unchecked={NOT_RUN: why},
    )


def cells(
    tables: Mapping[str, Table], local: Table | None = None, unasked: Mapping[str, tuple[str | None, str]] | None = None
) -> list[CellResult]:
    """The schema cells of the environments of ``tables`` (env id → (onnx version, table)) whose onnx is older than
    the newest of ``tables`` and ``local``.

    Each such environment gets a cell :data:`FORM` (every schema it shares with the newest, less those that differ
    anywhere: ``ok``) and, per schema that differs in any of them, a cell of that schema's own form
    (``ai.onnx.GlobalLpPool-22``) where both its table and the newest hold it: the fields it reports differently
    as findings, or ``ok``. So a schema's row compares the environments, and a baseline entry names one schema.

    ``unasked`` (env id → (its pinned onnx version or None, why its onnx could not be asked)): each gets one cell
    :data:`FORM`, ``unchecked`` with why, unless its pinned version is known and not older than the newest.
    """
    candidates = [*tables.values(), *([local] if local else [])]
    reference, ref_table = max(candidates, key=lambda t: _version_key(t[0])) if candidates else (None, {})
    out = [
        _unchecked(e, v, reference, why)
        for e, (v, why) in (unasked or {}).items()
        if v is None or reference is None or _version_key(v) < _version_key(reference)
    ]
    if reference is None:
        return out
    older = {e: (v, t) for e, (v, t) in tables.items() if _version_key(v) < _version_key(reference)}
    drifts = {e: drift(t, ref_table) for e, (_v, t) in older.items()}
    keys = sorted({d.key for ds in drifts.values() for d in ds})
    for env_id, (version, t) in older.items():
        shared = t.keys() & ref_table.keys()
        note = f"{len(shared - set(keys))} released schemas equal to onnx {reference}'s"
        out.append(_cell(env_id, FORM, version, reference, [], note))
        for key in keys:
            if key in shared:
                found = [_finding(env_id, d, version, reference, _form(key)) for d in drifts[env_id] if d.key == key]
                out.append(
                    _cell(env_id, _form(key), version, reference, found, f"{key} compared with onnx {reference}")
                )
    return out


def run(
    specs: Sequence[EnvSpec], ready: Mapping[str, Env], cache: Path | None, children: Children, tmp: Path
) -> list[CellResult]:
    """The schema cells of a matrix over ``specs`` (see the module docs). Every environment's interpreter is asked
    which onnx it imports now: the one the run created (``ready``: env id → environment), else the one an earlier
    run left (:func:`passcheck.matrix.create.existing`); that version's table comes from the cache or from the
    interpreter. An environment that does not exist, or whose interpreter or onnx does not start, gets an
    ``unchecked`` cell with why (a cached table of its pinned onnx is not a check of it). Only the first shard of
    a sharded plan writes them (once per environment)."""
    from passcheck.matrix import create

    root = cache or create.cache_dir()
    tables: dict[str, Table] = {}
    unasked: dict[str, tuple[str | None, str]] = {}
    for spec in specs:
        if children.stopped:
            return []
        env = ready.get(spec.id) or create.existing(spec, root)
        got = (
            env_table(env, root, children, tmp)
            if env is not None
            else f"{spec.id} was not created (its onnx's schemas were not asked)"
        )
        if children.stopped:
            return []
        if isinstance(got, str):
            unasked[spec.id] = (spec.pin("onnx"), got)
        else:
            tables[spec.id] = got
    return cells(tables, local_table(root), unasked)
