"""Each oracle is proven able to fail: a deliberately broken pass is caught by the intended
oracle, with real onnxruntime sessions and real shape inference underneath."""

from __future__ import annotations

import pytest

from passcheck._versions import tool_version
from passcheck.cases import registry
from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

from . import planted


def _run(case_id: str, fn, *, folds: bool = False):
    pid = f"planted:{fn.__name__}"
    register_pass(FunctionAdapter(pid, fn, folds_constants=folds))
    try:
        cells = evaluate(Subject.from_case(registry().get(case_id), tool_version("onnx")), [pid])
    finally:
        unregister_pass(pid)
    return [c for c in cells if c.pass_id == pid]


def _found(cells, oracle: str, kind: str, form: str | None = None):
    return [
        f
        for c in cells
        for f in c.findings
        if f.oracle == oracle and f.kind == kind and (form is None or f.form == form)
    ]


def test_fusion_dropped_on_one_form_is_caught_by_parity():
    cells = _run("optional-input/conv-bn", planted.fuse_conv_bn_counting_inputs)
    hits = _found(cells, "parity", "missed-optimization", form="empty-name")
    assert hits and "BatchNormalization" in hits[0].message
    # the fusion itself is numerically right: no wrong-result, and common is clean
    assert not _found(cells, "numeric", "wrong-result")
    assert not [f for c in cells if c.form == "common" for f in c.findings]


def test_fusion_counting_inputs_is_clean_on_the_bias_control():
    cells = _run("optional-input/conv-bn-bias-control", planted.fuse_conv_bn_counting_inputs)
    assert not [f for c in cells for f in c.findings]


def test_wrong_value_info_dim_is_caught_by_annotations():
    cells = _run("optional-input/conv-bn", planted.wrong_value_info_dim)
    hits = _found(cells, "annotations", "annotation-violated")
    assert {f.form for f in hits} == {"common", "empty-name"}
    assert "annotated 5, run produced 4" in hits[0].message


def test_perturbed_constant_is_caught_by_numeric():
    cells = _run("optional-input/conv-mul", planted.perturb_constant)
    hits = _found(cells, "numeric", "wrong-result")
    assert {f.form for f in hits} == {"common", "empty-name"}
    assert hits[0].details["max_abs"] > 1e-4
    assert "would pass" in hits[0].message


def test_crash_on_uncommon_form_only_is_caught_by_acceptance():
    cells = _run("optional-input/conv-add", planted.crash_on_empty_input)
    hits = _found(cells, "acceptance", "rejected")
    assert [f.form for f in hits] == ["empty-name"]
    assert "on this form only" in hits[0].message and "KeyError" in hits[0].message
    status = {c.form: c.status for c in cells}
    assert status == {"common": "unchanged", "empty-name": "crashed"}


def test_unfolded_static_shape_slice_is_caught_by_folding():
    cells = _run("shape/dynamic-1-3-output", planted.identity, folds=True)
    hits = _found(cells, "folding", "missed-optimization")
    assert {f.form for f in hits} == {"common", "gather", "start-end"}
    assert all(f.details["value"] == [[3, 4]] for f in hits)


def test_folding_oracle_ignores_values_that_depend_on_symbolic_dims():
    cells = _run("shape/dynamic-0-2-output", planted.identity, folds=True)
    assert not _found(cells, "folding", "missed-optimization")


def test_folding_oracle_is_off_for_passes_that_do_not_fold():
    cells = _run("shape/dynamic-1-3-output", planted.identity, folds=False)
    assert not [f for c in cells for f in c.findings]


def test_invalid_output_is_caught_by_validity():
    cells = _run("optional-input/conv-relu", planted.invalid_output)
    assert {f.form for f in _found(cells, "validity", "invalid-model")} == {"common", "empty-name"}


@pytest.mark.parametrize("fn", [planted.identity])
def test_a_correct_pass_yields_nothing(fn):
    for case_id in ("optional-input/conv-bn", "shape/static-1-3-reshape", "constant/pad-pads-opset17"):
        cells = _run(case_id, fn)
        assert not [f for c in cells for f in c.findings], case_id


def test_folding_oracle_does_not_judge_when_a_symbol_never_varied():
    import dataclasses

    pid = "planted:identity-fold"
    register_pass(FunctionAdapter(pid, planted.identity, folds_constants=True))
    try:
        subject = Subject.from_case(registry().get("shape/dynamic-0-2-output"), tool_version("onnx"))
        same = dataclasses.replace(subject, bindings=({"N": 4, "M": 4}, {"N": 4, "M": 4}))
        cells = evaluate(same, [pid])
    finally:
        unregister_pass(pid)
    assert not _found(cells, "folding", "missed-optimization")


RESIZE_LINEAR = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N,2,3,3] x) => (float[N,2,6,6] y) <float[4] sc = {1.,1.,2.,2.}> { y = Resize <mode = "linear"> (x, "", sc) }"""


def _run_subject(text: str, fn):
    from onnx import parser

    pid = f"planted:{getattr(fn, '__name__', 'partial')}"
    register_pass(FunctionAdapter(pid, fn))
    try:
        subject = Subject("planted/resize-linear", {"common": parser.parse_model(text)}, [{"N": 1}, {"N": 2}])
        cells = evaluate(subject, [pid])
    finally:
        unregister_pass(pid)
    return [c for c in cells if c.pass_id == pid]


def test_attribute_outside_its_documented_domain_is_caught_by_conformance():
    """nearest_mode="round_half_down" on a linear Resize: the checker and onnxruntime accept it
    (no validity, numeric or acceptance finding: the pass ran and its output ran with the same
    numbers), the operator docs do not (four modes). The same pass spelling the default right is clean."""
    (cell,) = _run_subject(RESIZE_LINEAR, planted.spell_out_resize_defaults)
    assert cell.status == "changed", cell
    assert {(f.oracle, f.kind) for f in cell.findings} == {("conformance", "spec-violation")}, cell
    (f,) = cell.findings
    assert f.details["rule"] == "resize-nearest-mode" and "'round_half_down'" in f.message
    assert "round_prefer_floor" in f.details["source"] and "Resize" in f.details["source"]
    assert cell.coverage["spec_rules"]["checked"] > 0

    import functools

    right = functools.partial(planted.spell_out_resize_defaults, nearest_mode="round_prefer_floor")
    right.__name__ = "spell_out_resize_defaults_right"
    (clean,) = _run_subject(RESIZE_LINEAR, right)
    assert clean.status == "changed" and clean.findings == [] and clean.verdict == "ok", clean
