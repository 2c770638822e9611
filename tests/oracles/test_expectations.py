"""Issue 11 item 7: the expectations oracle can fail, and a library case states inferred output
shapes (Expectation.output_shapes) that real shape inference is held to."""

from __future__ import annotations

from passcheck._versions import tool_version
from passcheck.cases import Expectation, registry
from passcheck.engine import Subject, evaluate

CASE = "shape/static-1-3-reshape"


def _failed(cells):
    return sorted(
        (c.form, c.pass_id, f.message.split(" after ")[0])
        for c in cells
        for f in c.findings
        if f.kind == "expectation-failed"
    )


def test_library_output_shapes_hold_under_data_propagation():
    case = registry().get(CASE)
    assert any(e.output_shapes for e in case.expect)
    cells = evaluate(Subject.from_case(case, tool_version("onnx")), ["onnx:infer-shapes-data-prop"], check_input=False)
    assert len(cells) == 3 and _failed(cells) == []


def test_unmet_expectations_are_findings():
    """Plain shape inference leaves the Reshape output's dims unknown and keeps Shape: both are
    reported on every form (the expectation applies to every pass here)."""
    subject = Subject.from_case(registry().get(CASE), tool_version("onnx"))
    subject.expect = (
        Expectation(output_shapes={"y": (10, 3, 4)}, reason="test"),
        Expectation(form="gather", no_op_types=("Shape",)),
    )
    cells = evaluate(subject, ["onnx:infer-shapes", "onnx:infer-shapes-data-prop"], check_input=False)
    assert _failed(cells) == [
        ("common", "onnx:infer-shapes", "expected output 'y' shape [10, 3, 4]"),
        ("gather", "onnx:infer-shapes", "expected no Shape"),
        ("gather", "onnx:infer-shapes", "expected output 'y' shape [10, 3, 4]"),
        ("gather", "onnx:infer-shapes-data-prop", "expected no Shape"),
        ("start-end", "onnx:infer-shapes", "expected output 'y' shape [10, 3, 4]"),
    ]


def test_a_statement_about_a_level_this_onnxruntime_does_not_run_is_noted_not_failed():
    """An expectation that rests on a transformer's level is held to only where the installed onnxruntime
    runs that transformer at the pass's level (its verbose log): SkipLayerNormFusion runs from ort:extended on,
    so 'no Add after ort:basic' is not this version's statement, while the same statement at ort:extended is."""
    from passcheck.oracles import ort_levels

    case = registry().get("fusion-norm/skip-layernorm")
    assert ort_levels.not_at("SkipLayerNormFusion", "ort:extended") is None
    assert ort_levels.not_at("SkipLayerNormFusion", "ort:all") is None  # the levels are cumulative
    assert ort_levels.not_at("", "ort:basic") is None  # a statement naming no transformer is always checked
    assert "from ort:extended on, not at ort:basic" in ort_levels.not_at("SkipLayerNormFusion", "ort:basic")
    assert ort_levels.not_at("GeluFusion", "ort:basic") is None  # registered as GeluFusionL1 since onnxruntime#21332
    assert ort_levels.not_at("Pad_Fusion", "ort:basic") is None  # a rewrite rule: never logged, always checked
    subject = Subject.from_case(case, tool_version("onnx"))
    subject.expect = tuple(
        Expectation(pass_id=p, form="common", no_op_types=("Add",), reason=f"no Add at {p}", transformer=t)
        for t, p in (("SkipLayerNormFusion", "ort:basic"), ("SkipLayerNormFusion", "ort:extended"))
    )
    cells = evaluate(subject, ["ort:basic", "ort:extended"], check_input=False)
    common = {c.pass_id: c for c in cells if c.form == "common"}
    assert _failed(cells) == []
    assert common["ort:basic"].ops_after.get("Add")  # the statement would fail had it been checked
    note = common["ort:basic"].notes["expectations"]
    assert "not checked: 'no Add at ort:basic'" in note and "'no Add at ort:extended'" not in note
    assert "expectations" not in common["ort:extended"].notes
    # a statement about another pass or another form is no statement about this cell: nothing to note
    assert not [c for c in cells if c.form != "common" and "expectations" in c.notes]
