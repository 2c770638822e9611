"""The cross-environment precision oracle (M52): one cell's inferred types in two pinned environments.

A matrix cell (case, form, pass) runs the same model bytes in every environment. A pass that does not rewrite
the graph records what it stated of each graph output and whether the run confirmed it
(:attr:`~passcheck.records.CellResult.inferred`). For two environments of one cell:

- one states strictly more (:func:`passcheck.oracles.parity.less_precise`: a known rank where the other has none,
  more ``dim_value``\\ s, or as many and more named dims; or an ``elem_type`` where the other has 0, UNDEFINED) and
  its annotation held in every run → ``less-precise`` on the other environment, naming the witness
  (``details.witness_env``; every such environment in ``details.witness_envs``, one finding per output and
  kind). The inputs are the same bytes, so what one tool version states of them and the run confirms, the other
  could have stated (IR.md §Static tensor shapes).
- both state a ``dim_value`` on one axis and they differ → ``annotation-violated`` on the environment whose
  annotation the run contradicts, when the other's held (both wrong, or neither checked: nothing is said) —
  unless onnx's reference evaluator computes the contradicted annotation (the cell's ``annotations`` finding on
  that output blames the runtime, :data:`passcheck.oracles.annotations.RUNTIME_DEVIATES`): the reference
  evaluator is the spec's, so the run is the one that deviates and the environment whose annotation agrees with
  it is the one blamed (``details.reference`` true), as the statement the spec contradicts (M219).

Never a finding without the run's confirmation: a witness whose annotation was not checked in every run, or was
violated, blames nobody. Findings carry oracle :data:`NAME`; :func:`judge` replaces earlier ones (merging shards
that were already judged is idempotent).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from passcheck.oracles.annotations import NAME as ANNOTATIONS
from passcheck.oracles.parity import less_precise
from passcheck.records import CellResult, Finding

NAME = "cross-env"


def judge(cells: Sequence[CellResult]) -> list[CellResult]:
    """``cells`` with this oracle's findings (re)computed on each: for every (case, form, pass) present in two or
    more environments with the same ``model_sha256``, each ordered pair is compared (see module docs)."""
    groups: dict[tuple[str, str, str], list[CellResult]] = {}
    for c in cells:
        c.findings = [f for f in c.findings if f.oracle != NAME]
        if c.inferred:
            groups.setdefault((c.case, c.form, c.pass_id), []).append(c)
    for group in groups.values():
        found: dict[tuple[int, str, str], Finding] = {}
        for witness, cell in permutations(group, 2):
            if witness.env == cell.env or witness.model_sha256 != cell.model_sha256:
                continue
            for f in compare(witness, cell):  # one finding per output and kind; every witness named
                first = found.setdefault((id(cell), f.kind, f.details["output"]), f)
                first.details.setdefault("witness_envs", []).append(witness.env)
                if first is f:
                    cell.findings.append(f)
    return list(cells)


def compare(witness: CellResult, cell: CellResult) -> list[Finding]:
    """Findings on ``cell`` judged against ``witness`` (the same cell in another environment)."""
    found = []
    for name, b in cell.inferred.items():
        a = witness.inferred.get(name)
        if a is None:
            continue
        if not a["holds"] and b["holds"] and _reference_holds(witness, name) and _contradicts(a["dims"], b["dims"]):
            why = "onnx's reference evaluator computes the witness's: this one agrees with a runtime that deviates"
            f = _finding(cell, witness, name, "annotation-violated", "dim_value", a, b, why)
            f.details["reference"] = True
            found.append(f)
            continue
        if not a["holds"] or (not b["holds"] and _reference_holds(cell, name)):
            continue
        more_elem = a["elem_type"] != 0 and b["elem_type"] == 0
        more_shape = less_precise(tuple(b["precision"]), tuple(a["precision"]))
        if more_shape or more_elem:
            what = "shape" if more_shape else "elem_type"
            found.append(_finding(cell, witness, name, "less-precise", what, a, b, "which holds at run time"))
        elif not b["holds"] and _contradicts(a["dims"], b["dims"]):
            found.append(
                _finding(cell, witness, name, "annotation-violated", "dim_value", a, b, "the run confirms the witness")
            )
    return found


def _reference_holds(cell: CellResult, name: str) -> bool:
    """Whether ``cell``'s annotations oracle found output ``name``'s annotation violated at run time while onnx's
    reference evaluator computes it (its finding's ``blame`` is ``runtime``)."""
    return any(
        f.oracle == ANNOTATIONS and f.details.get("value") == name and f.details.get("blame") == "runtime"
        for f in cell.findings
    )


def _contradicts(a: list | None, b: list | None) -> bool:
    """Both ranks known and equal, and one axis has two different ``dim_value``\\ s."""
    return (
        a is not None
        and b is not None
        and len(a) == len(b)
        and any(x is not None and y is not None and x != y for x, y in zip(a, b, strict=True))
    )


def _finding(cell, witness, name, kind, what, a, b, why) -> Finding:
    return Finding(
        kind,
        NAME,
        cell.case,
        cell.form,
        cell.pass_id,
        f"graph output {name!r} after {cell.pass_id}: {_shown(b)} in {cell.env} vs {_shown(a)} in {witness.env} "
        f"({why})",
        {"output": name, "witness_env": witness.env, "compared": what, "type": b["type"], "witness_type": a["type"]},
        env=cell.env,
        repro=f"passcheck matrix --env {cell.env} --env {witness.env} --case {cell.case} --pass {cell.pass_id}",
    )


def _shown(r: dict) -> str:
    return f"{r['type']} elem_type {r['elem_type']}"
