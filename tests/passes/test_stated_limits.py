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


def test_a_type_or_attribute_value_the_target_version_cannot_take_is_a_stated_limit():
    """The converter states why it refuses: Min-12 takes int64, Min-8 does not ("DataType (7) of Input or
    Output of operator 'Min' is unallowed for Opset Version 11", adapters/type_restriction.h); AveragePool-7's
    count_include_pad=1 has no opset-6 spelling ("Attribute count_include_pad must have value 0",
    adapters/transformers.h). Three of 37 signatures of a 12-minute onnx:convert-opset-down hunt (seed 44)
    were such neighbours reported as the converter rejecting a valid model."""
    int_min = """<ir_version: 7, opset_import: ["" : 12]>
g (int64[2] a, int64[2] b) => (int64[2] y) { y = Min (a, b) }"""
    pool = """<ir_version: 7, opset_import: ["" : 7]>
g (float[1,1,4,4] x) => (float[1,1,3,3] y) { y = AveragePool <kernel_shape = [2, 2], count_include_pad = 1> (x) }"""
    for text, words in ((int_min, "is unallowed for Opset Version 11"), (pool, "count_include_pad must have value 0")):
        report = check_model(
            parser.parse_model(text), ["onnx:convert-opset-down"], name="limits/type", allow_unavailable=True
        )
        (cell,) = [c for c in report.cells if c.pass_id == "onnx:convert-opset-down"]
        assert cell.status == "unavailable" and not cell.findings, cell
        assert cell.error.startswith(STATED_LIMIT) and words in cell.error


# ConstantOfShape is new at opset 20 and the converter has no adapter 20 -> 19 for it; the same
# value spelled Expand(Constant 0, shape) has Constant-19 as its newest op, so the boundary pass asks
# that form 20 -> 18 instead.
CONSTANT_OF_SHAPE = """<ir_version: 10, opset_import: ["" : 20]>
g () => (float[2, 3] y) <int64[2] s = {2, 3}> { y = ConstantOfShape (s) }"""
EXPAND = """<ir_version: 10, opset_import: ["" : 20]>
g () => (float[2, 3] y) <int64[2] s = {2, 3}> { z = Constant <value = float {0}> ()  y = Expand (z, s) }"""


def test_a_boundary_pass_that_asks_the_forms_different_conversions_compares_no_stated_limit():
    """``onnx:convert-opset-down`` picks each form's own step: the ConstantOfShape form is asked
    20 -> 19 (a limit the converter states), the Expand form 20 -> 18 (converted). The forms were
    asked different things, so the limit is the tool's, not a spelling's (the hunt14b sweep of the
    generated set: ``constantofshape-20`` under ``constant-of-shape-as-expand``)."""
    report = check_model(
        parser.parse_model(CONSTANT_OF_SHAPE),
        ["onnx:convert-opset-down"],
        forms={"expand": parser.parse_model(EXPAND)},
        name="limits/boundary-steps",
        allow_unavailable=True,
    )
    cells = {c.form: c for c in report.cells if c.pass_id == "onnx:convert-opset-down"}
    assert (
        cells["common"].status == "unavailable"
        and "No Adapter To Version $19 for ConstantOfShape" in cells["common"].error
    )
    assert "opset 20 → 19" in cells["common"].error
    assert cells["expand"].status in ("changed", "unchanged"), cells["expand"]
    assert not [f for c in cells.values() for f in c.findings], [f.message for c in cells.values() for f in c.findings]
    assert report.exit_code == 0


XOR = """<ir_version: 8, opset_import: ["" : 7]>
g (bool[2, 3] x, bool[2, 3] t) => (bool[2, 3] y) { y = Xor (x, t) }"""


def test_the_converter_s_no_adapter_for_an_op_is_a_stated_limit_too():
    """Xor-7 down to opset 6: adapter_lookup's third wording, "No Adapter For Xor" (no version in
    it), is the same stated limit as "No Adapter From Version …", not a ``declined`` finding (the
    hunt14b sweep's hand-made ``xortrue`` bases reported it as one)."""
    report = check_model(
        parser.parse_model(XOR), ["onnx:convert-opset-down"], name="limits/no-adapter-for", allow_unavailable=True
    )
    (cell,) = [c for c in report.cells if c.pass_id == "onnx:convert-opset-down"]
    assert cell.status == "unavailable" and not cell.findings, cell
    assert cell.error.startswith(STATED_LIMIT) and "No Adapter For Xor" in cell.error, cell.error
    assert report.exit_code == 0


def test_the_opset_6_broadcast_adapters_refusals_are_stated_limits():
    """Opset 6 broadcasts one way (B onto A, with ``broadcast=1``) and its adapters read dim_values only:
    ``Div(1, x)`` at opset 7 has no opset-6 spelling ("Div being converted from 7 to 6 does not have
    broadcastable inputs", broadcast_backward_compatibility.h), and symbolic dims stop the adapter ("N
    Dimension is a param instead of an int", helper.cc assertNotParams). Both are the converter saying what
    it cannot do, not a valid model it rejects (hunt14b's sweep reported them as ``declined`` findings)."""
    div = """<ir_version: 7, opset_import: ["" : 7]>
g (float[2, 3] x) => (float[2, 3] y) { one = Constant <value = float {1}> ()  y = Div (one, x) }"""
    add = """<ir_version: 7, opset_import: ["" : 7]>
g (float[N, 3] x, float[3] z) => (float[N, 3] y) { y = Add (x, z) }"""
    for text, words in ((div, "does not have broadcastable inputs"), (add, "Dimension is a param instead of an int")):
        report = check_model(
            parser.parse_model(text), ["onnx:convert-opset-down"], name="limits/broadcast", allow_unavailable=True
        )
        (cell,) = [c for c in report.cells if c.pass_id == "onnx:convert-opset-down"]
        assert cell.status == "unavailable" and not cell.findings, (cell.status, cell.error)
        assert cell.error.startswith(STATED_LIMIT) and words in cell.error, cell.error
