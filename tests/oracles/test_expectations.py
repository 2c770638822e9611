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
