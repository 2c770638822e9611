"""The matrix plan: model bytes built once, cells (case, form, pass, env), shards.

Models are built once (in the parent when onnx is importable, else by a ``build`` worker in the
first environment) and written as ``<out>/models/*.onnx`` with a ``manifest.json`` giving each
form's file and sha256; every environment reads those same bytes.

Sharding splits *units* (env, case, pass) — a unit is the smallest piece a worker runs, since
the parity oracle compares every form of a case under one pass. Units are ordered by
environment, case and pass, and shard ``i/n`` takes the ``i``-th contiguous slice, so one CI job
touches one or two environments and the slices are the same on every machine.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from passcheck.errors import PasscheckError

INPUT = "input"  # the engine's pseudo-pass judging each form itself (passcheck.engine.INPUT)


@dataclasses.dataclass(frozen=True)
class ModelCase:
    """One case as shipped to the workers: its forms' files and hashes, its pass ids and, for a
    generated case, its metadata (``meta``: doc, opset, tags, rtol, atol, parity), so a worker
    under another onnx needs neither to generate the set nor to guess them."""

    id: str
    forms: dict[str, dict[str, str]]  # form → {"file": name, "sha256": hex}
    passes: tuple[str, ...]
    meta: dict[str, Any] | None = dataclasses.field(default=None, compare=False)

    @property
    def family(self) -> str:
        return self.id.split("/", 1)[0]


@dataclasses.dataclass(frozen=True)
class Unit:
    env: str
    case: str
    pass_id: str
    forms: tuple[str, ...]

    def cells(self) -> list[tuple[str, str, str, str]]:
        return [(self.case, f, self.pass_id, self.env) for f in self.forms]


#: The released-schema oracle's case (:mod:`passcheck.matrix.schemas`): judged once per environment, no model, no
#: entry in the case registry.
SCHEMAS_CASE = "schemas/released"


def wants_schemas(patterns: Sequence[str]) -> bool:
    """Whether a ``--case`` selection asks for the :data:`SCHEMAS_CASE` cells: no pattern (every case), or a pattern
    whose case glob matches it (``schemas/*``, ``*``; the form part after a colon is not read). A run restricted to
    other cases does not judge the environments' released schemas, so their drift is not among its findings."""
    return not patterns or any(
        fnmatch.fnmatchcase(SCHEMAS_CASE, p) or fnmatch.fnmatchcase(SCHEMAS_CASE, p.rpartition(":")[0])
        for p in patterns
    )


def build_models(
    cases: Sequence[str], passes: Sequence[str], out: Path, cases_from: Iterable[str] = ()
) -> dict[str, Any]:
    """Build every form of the selected cases into ``out`` and write ``out/manifest.json``.

    Needs onnx (runs in the parent or in a ``build`` worker).

    A pattern that matches :data:`SCHEMAS_CASE` and no registered case selects no model (:func:`wants_schemas`);
    patterns that all do build none.

    Raises:
        UnknownIdError: a case glob or pass id that matches nothing.
    """
    from passcheck._versions import environment
    from passcheck.cases import load_path, registry
    from passcheck.errors import UnknownIdError
    from passcheck.passes import DEFAULT_PASSES, get_pass
    from passcheck.passes._registry import MATRIX_SWEEP

    for p in cases_from:
        load_path(p)
    for p in passes:
        get_pass(p)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    chosen = list(cases)
    for pat in cases:
        if wants_schemas([pat]):
            try:
                registry().select([pat])
            except UnknownIdError:
                chosen.remove(pat)  # the released-schema cells alone
    for case in registry().select(chosen) if chosen or not cases else ():
        forms = {}
        for name in case.forms:
            data = case.build(name).SerializeToString(deterministic=True)
            fname = f"{re.sub(r'[^A-Za-z0-9_.+-]', '__', case.id)}.{name}.onnx"
            (out / fname).write_bytes(data)
            forms[name] = {"file": fname, "sha256": hashlib.sha256(data).hexdigest()}
        chosen = list(passes) or [*dict.fromkeys([*(case.passes or DEFAULT_PASSES), *MATRIX_SWEEP])]
        entry = {"id": case.id, "forms": forms, "passes": chosen}
        if case.id.startswith("generated/"):
            from passcheck.generate import case_meta

            entry["meta"] = case_meta(case)
        elif case.id.startswith("onnx-node/"):  # its feeds and stated outputs: the parent's data folder
            from passcheck import nodetests

            entry["meta"] = {"onnx-node": nodetests.case_meta(case)}
        entries.append(entry)
    manifest = {"cases": entries, "built_with": environment()}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def read_manifest(models: Path) -> list[ModelCase]:
    """The cases of ``models/manifest.json``.

    Raises:
        PasscheckError: the manifest is missing or malformed.
    """
    try:
        doc = json.loads((models / "manifest.json").read_text(encoding="utf-8"))
        return [ModelCase(c["id"], c["forms"], tuple(c["passes"]), c.get("meta")) for c in doc["cases"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PasscheckError(
            f"{models}/manifest.json: not a readable model manifest ({exc}); rebuild without --resume"
        ) from None


def units(cases: Sequence[ModelCase], envs: Sequence[str]) -> list[Unit]:
    """Every unit, ordered by env (given order), case (given order) and pass (``input`` first)."""
    return [Unit(env, c.id, p, tuple(c.forms)) for env in envs for c in cases for p in (INPUT, *c.passes)]


def plan_hash(cases: Sequence[ModelCase], all_units: Sequence[Unit], pins: dict[str, str]) -> str:
    """sha256 identifying a whole (unsharded) plan: every cell key in order, each form's model
    hash, each environment's pins hash. Shards of one plan share it; a different selection,
    commit or pins file gives another."""
    doc = {
        "cells": [list(k) for u in all_units for k in u.cells()],
        "models": {c.id: {f: v["sha256"] for f, v in c.forms.items()} for c in cases},
        "pins": pins,
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` with 1 ≤ I ≤ N → (I, N).

    Raises:
        PasscheckError: anything else.
    """
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise PasscheckError(f"--shard {text!r}: expected I/N with 1 <= I <= N, e.g. 2/4")
    return int(m.group(1)), int(m.group(2))


def shard(items: Sequence[Unit], index: int, count: int) -> list[Unit]:
    """The ``index``-th (1-based) of ``count`` contiguous, near-equal slices of ``items``."""
    n = len(items)
    return list(items[(index - 1) * n // count : index * n // count])
