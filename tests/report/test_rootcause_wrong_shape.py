"""One changed output is one root cause, whichever oracles see it (M161, round 12e).

onnxscript 0.7.2's rewriter (FuseMaxMinToClip, docs/found.md row 82) turns ``y = Min(Max(x, lo), hi)`` with ``lo``
of shape ``[1, 1, 1]`` into a Clip that keeps ``x``'s rank: the output ``y`` is ``[N, 8]`` where the input computes
``[1, N, 8]`` (Min/Max broadcast multidirectionally, Broadcasting.md). The numeric oracle says "shape [2, 8] vs
expected [1, 2, 8]" and the annotations oracle says y's declared ``[1, "N", 8]`` does not hold: one fact. The
round-12e rewrite hunt listed them as two causes; the report's root causes as two too. Real onnxscript runs.
"""

from __future__ import annotations

import pytest

from passcheck.report.rootcause import root_causes, wrong_shape
from tests._min_max_clip import model

PASS = "onnxscript:rewrite"


@pytest.fixture(scope="module")
def report():
    pytest.importorskip("onnxscript")
    from passcheck import api

    m = model()
    report = api.check_model(m, [PASS], isolation=False)
    kinds = {(f.oracle, f.kind) for f in report.findings}
    assert {("numeric", "wrong-result"), ("annotations", "annotation-violated")} <= kinds
    return report


def _records(report, blame_runtime: bool = False) -> dict:
    """The report's findings as a hunt state's signature records, all first found on one item."""
    from passcheck.oracles.annotations import RUNTIME_DEVIATES

    out = {}
    for f in report.findings:
        msg = f.message + (RUNTIME_DEVIATES if blame_runtime and f.oracle == "annotations" else "")
        sig = {"pass_id": f.pass_id, "oracle": f.oracle, "kind": f.kind, "ops": ["Max", "Min"], "rewrite": "r"}
        out.setdefault(
            f"{f.oracle}|{f.kind}",
            {"signature": sig, "message": msg, "hits": 1, "found_on": {"base": "b", "form": "r", "pass": PASS}},
        )
    return out


def test_wrong_shape_reads_the_numeric_oracles_words_only():
    assert wrong_shape("numeric", "wrong-result", "output 'y' (binding 0): shape [2, 8] vs expected [1, 2, 8]") == "y"
    assert wrong_shape("numeric", "wrong-result", "output 'z' (binding 1): dtype int32 vs expected int64") == "z"
    assert wrong_shape("numeric", "wrong-result", "output 'y' (binding 0): 3 of 8 elements outside rtol") is None
    assert (
        wrong_shape("annotations", "annotation-violated", "output 'y' (binding 0): shape [2] vs expected [3]") is None
    )


def test_the_annotation_of_a_changed_output_is_explained_by_the_wrong_result(report):
    causes = root_causes(report.cells)
    (numeric,) = [c for c in causes if c.finding.oracle == "numeric"]
    assert not [c for c in causes if c.finding.oracle == "annotations"]
    assert {f.oracle for f in numeric.explains} == {"numeric", "annotations"}
    assert numeric.finding.details["output"] == "y"


def test_the_hunt_groups_the_two_signatures_as_one_cause(report):
    from passcheck.hunt.groups import group

    groups = group(_records(report))
    (g,) = [g for g in groups if g.oracle == "numeric"]
    assert {r["signature"]["oracle"] for r in g.records} == {"numeric", "annotations"}
    assert not [g for g in groups if g.oracle == "annotations"]


def test_an_annotation_blamed_on_the_runtime_stays_its_own_cause(report):
    from passcheck.hunt.groups import group

    groups = group(_records(report, blame_runtime=True))
    assert [g.oracle for g in groups if g.oracle == "annotations"] == ["annotations"]
