"""One defect of onnxruntime's transformers optimizer seen under several model types is one root cause
(passcheck.report.rootcause.pass_family, M93): the types share their fusion classes (``MODEL_TYPES`` maps every
type but ``phi`` to ``BertOnnxModel`` or a subclass), so FusionGelu missing the erf-GELU spelled with
``Mul(x, 1/sqrt 2)`` (the library's ``fusion-gelu/gelu-erf-r2``, form ``mul-inv-sqrt2``) under ``bert`` and ``vit``
is one cause in a report, in the hunt's summary and in triage's candidates, while every finding keeps its own pass.
Real onnxruntime.transformers runs."""

from __future__ import annotations

import pytest

from passcheck.report.rootcause import pass_family

TYPES = ("ort-transformers:bert", "ort-transformers:vit")


@pytest.fixture(scope="module")
def report():
    from passcheck import api

    report = api.run(["fusion-gelu/gelu-erf-r2"], list(TYPES), isolation=False)
    missed = [f for f in report.findings if f.kind == "missed-optimization"]
    assert {(f.form, f.pass_id) for f in missed} == {("mul-inv-sqrt2", p) for p in TYPES}
    return report


def test_pass_family_joins_model_types_and_levels_only():
    assert {pass_family(p) for p in TYPES} == {"ort-transformers:*"}
    assert pass_family("ort:all") == pass_family("ort:basic") == "ort:level"
    assert pass_family("onnxscript:optimize") == "onnxscript:optimize"
    assert pass_family("ort:symbolic-shape-infer") == "ort:symbolic-shape-infer"


def test_one_fusion_missed_under_two_model_types_is_one_root_cause(report):
    from passcheck.report.rootcause import count, root_causes

    assert count(report.cells)["unexpected_root_causes"] == 1
    (cause,) = [c for c in root_causes(report.cells) if not c.expected]
    assert {f.pass_id for f in cause.explains} == set(TYPES)


def test_hunt_groups_the_model_types_into_one_cause_naming_them(report):
    from passcheck.hunt.groups import group
    from passcheck.hunt.summary import cause_lines

    sigs = {}
    for f in (f for f in report.findings if f.kind == "missed-optimization"):
        sig = {"pass_id": f.pass_id, "oracle": f.oracle, "kind": f.kind, "ops": ["Mul"], "rewrite": f.form}
        sigs[f.pass_id] = {"signature": sig, "hits": 1, "message": f.message}
    sigs["other"] = {**sigs[TYPES[0]], "signature": {**sigs[TYPES[0]]["signature"], "pass_id": "ort:all"}}
    groups = group(sigs)
    assert [g.label for g in groups] == ["ort-transformers:* (bert, vit)", "ort:all"]
    assert groups[0].passes == list(TYPES)
    assert cause_lines(sigs)[1].startswith("cause 1: ort-transformers:* (bert, vit) parity missed-optimization: kept")


def test_triage_makes_one_candidate_reproduced_under_its_first_type(report):
    from passcheck.triage.candidates import group

    (candidate,) = group(report.cells)
    assert candidate.signature.pass_id == "ort-transformers:*"
    assert candidate.passes == list(TYPES) and candidate.finding.pass_id == TYPES[0]
