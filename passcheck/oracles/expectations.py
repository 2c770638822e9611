"""Expectations: statements a case makes about a pass (op types gone, inferred output shapes).

A statement that rests on an onnxruntime transformer's level (:attr:`Expectation.transformer`) is
checked only where the installed onnxruntime runs that transformer at the pass's level
(:mod:`passcheck.oracles.ort_levels`); elsewhere it is left unchecked and :func:`notes` says why."""

from __future__ import annotations

from collections.abc import Sequence

from passcheck.case_model import Expectation
from passcheck.oracles import ort_levels
from passcheck.oracles._context import FormRun, op_counts
from passcheck.oracles._contract import BaseOracle, Cells
from passcheck.records import Finding

NAME = "expectations"


def check(run: FormRun, expectations: Sequence[Expectation]) -> list[Finding]:
    out = run.output
    if out is None:
        return []
    found = []
    ops = op_counts(out)
    for e in expectations:
        if not e.applies(run.pass_id, run.form) or ort_levels.not_at(e.transformer, run.pass_id):
            continue
        why = f" ({e.reason})" if e.reason else ""
        left = [op for op in e.no_op_types if ops.get(op)]
        if left:
            found.append(
                run.finding(
                    "expectation-failed",
                    NAME,
                    f"expected no {', '.join(left)} after {run.pass_id}, found "
                    f"{', '.join(f'{op}×{ops[op]}' for op in left)}{why}",
                )
            )
        outs = {o.name: o for o in out.graph.output}
        for name, want in e.output_shapes.items():
            o = outs.get(name)
            got = _dims(o.type) if o is not None else None
            if got != tuple(want):
                found.append(
                    run.finding(
                        "expectation-failed",
                        NAME,
                        f"expected output {name!r} shape {list(want)} after {run.pass_id}, "
                        f"found {list(got) if got is not None else 'no shape'}{why}",
                    )
                )
    return found


def notes(run: FormRun, expectations: Sequence[Expectation]) -> dict[str, str]:
    """``{"expectations": sentence}`` naming each statement about ``run``'s pass and form that this
    onnxruntime version does not make (its transformer runs at another level, or not at all), else empty."""
    skipped = {}
    for e in expectations:
        if e.applies(run.pass_id, run.form) and (why := ort_levels.not_at(e.transformer, run.pass_id)):
            skipped.setdefault(why, e.reason or f"no {', '.join(e.no_op_types)}")
    if not skipped:
        return {}
    return {NAME: "; ".join(f"not checked: '{stated}': {why}" for why, stated in skipped.items())}


def _dims(tp):
    tt = tp.tensor_type
    if not tt.HasField("shape"):
        return None
    return tuple(d.dim_value if d.HasField("dim_value") else (d.dim_param or "?") for d in tt.shape.dim)


class Expectations(BaseOracle):
    """``expectation-failed``: the subject's own statements about a pass."""

    id = NAME

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run, cells.expect)


ORACLE = Expectations()
