"""The seed document's bugs, found by the general oracles on the installed tools.

These assert today's onnxruntime behaviour (1.32 and every release before it): the Conv
fusions skip a ``""`` bias, and a Shape slice whose selected dims are static is not folded
when another dim is symbolic. If onnxruntime fixes them these tests fail, on purpose: the
finding list in the README must then change.
"""

from __future__ import annotations

import pytest

from passcheck._versions import tool_version
from passcheck.cases import registry
from passcheck.engine import Subject, evaluate

ORT_LEVELS = ["ort:basic", "ort:extended", "ort:all"]


def _cells(case_id, passes):
    return evaluate(Subject.from_case(registry().get(case_id), tool_version("onnx")), passes)


@pytest.mark.parametrize(
    "case_id,op",
    [
        ("optional-input/conv-bn", "BatchNormalization"),
        ("optional-input/conv-add", "Add"),
        ("optional-input/conv-mul", "Mul"),
    ],
)
def test_empty_bias_blocks_conv_fusions_at_every_level(case_id, op):
    cells = _cells(case_id, ORT_LEVELS)
    for level in ORT_LEVELS:
        parity = [f for c in cells if c.pass_id == level for f in c.findings if f.oracle == "parity"]
        assert [(f.form, f.kind) for f in parity] == [("empty-name", "missed-optimization")], level
        assert op in parity[0].details["kept_op_types"]
        common = next(c for c in cells if c.pass_id == level and c.form == "common")
        assert op not in common.ops_after


def test_bias_present_control_reports_nothing_under_ort():
    cells = _cells("optional-input/conv-bn-bias-control", ["ort:disabled", *ORT_LEVELS])
    assert not [f for c in cells for f in c.findings]


@pytest.mark.parametrize(
    "case_id",
    [
        "shape/dynamic-1-3-output",
        "shape/dynamic-m3-m1-output",
        "shape/dynamic-1-3-reshape",
        "shape/dynamic-m3-m1-reshape",
    ],
)
def test_static_slice_of_symbolic_shape_is_not_folded(case_id):
    cells = _cells(case_id, ["ort:basic"])
    folding = {f.form for c in cells for f in c.findings if f.oracle == "folding"}
    assert folding == {"common", "gather", "start-end"}


@pytest.mark.parametrize(
    "case_id",
    [
        "shape/static-1-3-output",
        "shape/static-m3-m1-reshape",
        "shape/dynamic-0-2-output",
        "shape/dynamic-m10-10-reshape",
    ],
)
def test_no_folding_finding_where_folding_happens_or_is_impossible(case_id):
    cells = _cells(case_id, ["ort:basic"])
    assert not [f for c in cells for f in c.findings if f.oracle == "folding"]


def test_every_seed_form_is_valid_and_agrees_with_common():
    for case in registry().select(["seed"]):
        cells = evaluate(Subject.from_case(case, tool_version("onnx")), ["ort:disabled"])
        bad = [f.headline() for c in cells if c.pass_id == "input" for f in c.findings]
        assert not bad, bad
