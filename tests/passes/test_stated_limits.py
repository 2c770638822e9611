"""A limit the tool documents is an environment fact, not a finding (issue 30): the onnx version
converter's "No Adapter From Version" / "No Previous Version" make a cell ``unavailable`` with the
tool's own words; stated for one form while the tool converts another form of the same
computation, it is still an acceptance finding."""

from __future__ import annotations

from onnx import parser

from passcheck.api import check_model
from passcheck.passes._base import STATED_LIMIT

ISINF = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (bool[2] y) { y = IsInf (x) }"""
# The same with an Identity (since opset 16) in front: the converter has no adapter from Identity-16 down.
ISINF_IDENTITY = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (bool[2] y) { i = Identity (x)  y = IsInf (i) }"""
ABS = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { y = Abs (x) }"""
ABS_IDENTITY = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { i = Identity (x)  y = Abs (i) }"""


def _cells(common: str, other: str):
    report = check_model(
        parser.parse_model(common),
        ["onnx:convert-opset-10"],
        forms={"other": parser.parse_model(other)},
        name="limits/pair",
        allow_unavailable=True,  # named, a pass that does not run is unchecked (tests/cli/test_named_pass_not_run.py)
    )
    return report, {c.form: c for c in report.cells if c.pass_id == "onnx:convert-opset-10"}


def test_a_step_the_converter_has_no_adapter_for_is_unavailable_on_every_form():
    report, cells = _cells(ABS, ABS_IDENTITY)
    for c in cells.values():
        assert c.status == "unavailable" and c.verdict == "unavailable" and not c.findings, c
        assert c.error.startswith(STATED_LIMIT) and "No Adapter From Version" in c.error
    assert report.exit_code == 0


def test_a_stated_limit_on_one_form_only_is_still_a_finding():
    report, cells = _cells(ISINF, ISINF_IDENTITY)
    assert cells["common"].status in ("changed", "unchanged") and not cells["common"].findings
    (f,) = cells["other"].findings
    assert f.oracle == "acceptance" and f.kind == "rejected" and "this form only" in f.message
    assert "No Adapter From Version $16 for Identity" in f.message
    assert cells["other"].verdict == "findings" and report.exit_code == 1


def test_the_opset_boundary_pass_keeps_the_converter_s_stated_limit():
    """``onnx:convert-opset-down`` wraps the converter: a step it has no adapter for is the same
    stated limit (unavailable on every form), not a ``declined`` the acceptance oracle reports."""
    report = check_model(
        parser.parse_model(ABS_IDENTITY),
        ["onnx:convert-opset-down"],
        forms={"other": parser.parse_model(ABS_IDENTITY.replace("Abs (i)", "Abs (x)"))},
        name="limits/boundary",
        allow_unavailable=True,
    )
    cells = [c for c in report.cells if c.pass_id == "onnx:convert-opset-down"]
    assert len(cells) == 2
    for c in cells:
        assert c.status == "unavailable" and not c.findings, c
        assert c.error.startswith(STATED_LIMIT) and "No Adapter From Version $16 for Identity" in c.error
        assert "opset 18 → 15" in c.error  # the boundary the adapter chose is still said
    assert report.exit_code == 0
