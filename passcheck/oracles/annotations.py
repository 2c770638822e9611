"""Annotations: the shape/type annotations a pass output carries hold when it runs (seed 000).

Judged on the runs of the pass output with the original feeds. A precondition violation here
means the pass changed a graph input annotation so that inputs valid for the original model no
longer satisfy it; that is reported against the pass too.
"""

from __future__ import annotations

from passcheck.oracles import shape_annotations
from passcheck.oracles._context import FormRun
from passcheck.records import Finding

NAME = "annotations"


def check(run: FormRun) -> list[Finding]:
    out = run.output
    if out is None:
        return []
    found: list[Finding] = []
    seen: set[str] = set()
    for i, r in enumerate(run.runs):
        if r.error:
            continue
        report = shape_annotations.check(out, r.observed)
        for v in report.violations:
            if v.message in seen:
                continue
            seen.add(v.message)
            what = "graph input annotation (narrowed by the pass)" if v.role == "precondition" else "annotation"
            found.append(run.finding("annotation-violated", NAME, f"{what} does not hold (binding {i}): {v.message}", binding=i, value=v.value, role=v.role, rule=v.rule, occurrences=[o.to_json() for o in v.occurrences]))
    return found


def coverage(run: FormRun) -> dict:
    """Values annotated / checked / unobserved on the first successful run of the output."""
    out = run.output
    for r in run.runs:
        if out is not None and not r.error:
            return shape_annotations.check(out, r.observed).coverage()
    return {}
