"""A value mismatch (a numeric wrong-result whose message is the comparison alone: "output 'y' (binding 0):
N of M elements outside …") names nothing of its cause, so triage joins such findings only within one case
(its forms, levels, environments), never across cases on that text: session 14's ort:all hunt put the
LayerNormalization-axis bug, QDQ rounding and a Conv cast under one candidate that way. Real onnxruntime runs
of a planted ``cmd:`` pass that writes Tanh for Sigmoid, on two library cases."""

from __future__ import annotations

import sys

from tests.triage._planted import renaming


def test_value_mismatches_of_two_cases_are_two_candidates(tmp_path):
    from passcheck import api
    from passcheck.triage.bundle import Outcome
    from passcheck.triage.candidates import group
    from passcheck.triage.index import causes_md

    (tmp_path / "wrong.py").write_text(renaming("Sigmoid", "Tanh"))
    cmd = f"cmd:{sys.executable} {tmp_path / 'wrong.py'} {{in}} {{out}}"
    report = api.run(["fusion-gelu/quickgelu-r2", "graph-structure/topological-order"], [cmd], isolation=False)
    wrong = [c for c in group(report.cells) if c.signature.kind == "wrong-result"]
    assert all("elements outside" in c.finding.message for c in wrong)
    assert sorted(c.cases for c in wrong) == [["fusion-gelu/quickgelu-r2"], ["graph-structure/topological-order"]]
    gelu = next(c for c in wrong if c.cases == ["fusion-gelu/quickgelu-r2"])
    assert set(gelu.forms) == {"common", "alpha-first", "gate-first"}  # one case's forms: one candidate
    rows = [{"n": n, "candidate": c, "outcome": Outcome("reproduced", "")} for n, c in enumerate(wrong, 1)]
    assert causes_md(rows)[1] == "## By root cause (2 causes of 2 candidates)"  # the rule 'ops -' joins nothing
