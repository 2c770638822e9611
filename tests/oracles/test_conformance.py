"""The conformance oracle: documented operator rules the checker does not enforce, judged with real
onnx shape inference and the real checker (onnx 1.23.2), and onnxruntime sessions where a cell runs."""

from __future__ import annotations

import onnx.defs
import pytest
from onnx import parser

from passcheck.engine import INPUT, Subject, evaluate
from passcheck.oracles import conformance
from passcheck.oracles.spec_table import RULES
from passcheck.oracles.validity import checker_error
from passcheck.testing import as_adapter
from passcheck.testing import registered as registered_pass

HEAD = '<ir_version: 8, opset_import: ["" : 18]>\n'
#: (rule id, a model the checker accepts that breaks it, the same model within the rule).
LET_THROUGH = [
    (
        "resize-nearest-mode",
        "g (float[1,1,2,2] x) => (float[1,1,4,4] y) <float[4] sc = {1.,1.,2.,2.}> "
        '{ y = Resize <mode = "linear", nearest_mode = "round_half_down"> (x, "", sc) }',
        "g (float[1,1,2,2] x) => (float[1,1,4,4] y) <float[4] sc = {1.,1.,2.,2.}> "
        '{ y = Resize <mode = "linear", nearest_mode = "floor"> (x, "", sc) }',
    ),
    (
        "resize-coordinate-mode",
        "g (float[1,1,2,2] x) => (float[1,1,4,4] y) <float[4] sc = {1.,1.,2.,2.}> "
        '{ y = Resize <coordinate_transformation_mode = "half_pixel_symmetric"> (x, "", sc) }',
        "g (float[1,1,2,2] x) => (float[1,1,4,4] y) <float[4] sc = {1.,1.,2.,2.}> "
        '{ y = Resize <coordinate_transformation_mode = "asymmetric"> (x, "", sc) }',
    ),
    (
        "einsum-equation",
        'g (float[2,2] x) => (float[2] y) { y = Einsum <equation = "ii->i->"> (x) }',
        'g (float[2,2] x) => (float[2] y) { y = Einsum <equation = "ii->i"> (x) }',
    ),
    (
        "pad-mode",
        'g (float[2,3] x) => (float[2,3] y) <int64[4] p = {0,0,0,0}> { y = Pad <mode = "wrap"> (x, p) }',
        'g (float[2,3] x) => (float[2,3] y) <int64[4] p = {0,0,0,0}> { y = Pad <mode = "edge"> (x, p) }',
    ),
    (
        "depth-to-space-mode",
        'g (float[1,4,2,2] x) => (float[1,1,4,4] y) { y = DepthToSpace <blocksize = 2, mode = "RCD"> (x) }',
        'g (float[1,4,2,2] x) => (float[1,1,4,4] y) { y = DepthToSpace <blocksize = 2, mode = "CRD"> (x) }',
    ),
    (
        "unsqueeze-axes",  # the rank after a Reshape to a shape of unknown length is unknown: inference cannot look
        "g (float[6] x, int64[K] s) => (float y) <int64[2] a = {1,1}> { t = Reshape(x, s)  y = Unsqueeze(t, a) }",
        "g (float[6] x, int64[K] s) => (float y) <int64[2] a = {0,1}> { t = Reshape(x, s)  y = Unsqueeze(t, a) }",
    ),
    (
        "slice-steps-non-zero",
        "g (float[6] x, int64[K] s) => (float y) <int64[1] b = {0}, int64[1] e = {1}, int64[1] a = {0}, "
        "int64[1] st = {0}> "
        "{ t = Reshape(x, s)  y = Slice(t, b, e, a, st) }",
        "g (float[6] x, int64[K] s) => (float y) <int64[1] b = {0}, int64[1] e = {1}, int64[1] a = {0}, "
        "int64[1] st = {1}> "
        "{ t = Reshape(x, s)  y = Slice(t, b, e, a, st) }",
    ),
]


def _model(text: str):
    return parser.parse_model(HEAD + text)


def test_every_rule_is_data_naming_real_ops_its_source_and_an_opset_range():
    assert len({r.id for r in RULES}) == len(RULES)
    for r in RULES:
        assert r.source and r.section and r.ops, r.id
        for op in r.ops:
            assert onnx.defs.has(op), (r.id, op)
        assert r.section.split(",")[0].split("/")[0].split("-")[0] in r.ops, r.id  # the section names its op
        lo, hi = r.since
        assert lo >= 1 and (hi is None or hi > lo), r.id


@pytest.mark.parametrize(("rule", "bad", "good"), LET_THROUGH, ids=[c[0] for c in LET_THROUGH])
def test_a_rule_the_checker_lets_through_is_caught_and_its_in_domain_spelling_is_not(rule, bad, good):
    bad_m, good_m = _model(bad), _model(good)
    assert checker_error(bad_m) is None and checker_error(good_m) is None  # onnx.checker (full_check) accepts both
    (v,) = [v for v in conformance.evaluate(bad_m).violations if v.rule == rule]
    assert v.source.endswith(")") and "Operators.md" in v.source
    assert conformance.evaluate(good_m).violations == []


def test_schema_rules_read_from_onnx_defs_fire_on_what_the_schema_forbids():
    conv = _model(
        "g (float[1,1,5,5] x) => (float[1,1,5,5] y) <float[1,1,1,1] w = {1.}> { y = Conv <strides = [1., 1.]> (x, w) }"
    )
    rules = {v.rule for v in conformance.evaluate(conv).violations}
    assert "schema-attribute-type" in rules  # strides is INTS, written as FLOATS
    relu = _model("g (int64[2] x) => (int64[2] y) { y = Sqrt(x) }")
    assert "schema-type-constraint" in {v.rule for v in conformance.evaluate(relu).violations}
    two_inputs = _model("g (float[2] x) => (float[2] y) { y = Relu(x, x) }")
    assert "schema-arity" in {v.rule for v in conformance.evaluate(two_inputs).violations}


def test_a_rule_that_cannot_be_decided_is_neither_a_finding_nor_unchecked_and_says_why():
    m = _model("g (float[N,3] x) => (float[N,3] y) { s = Shape(x)  y = Reshape(x, s) }")  # shape not a constant
    ev = conformance.evaluate(m)
    assert ev.violations == [] and "not a constant" in ev.undecided["reshape-shape@Reshape_1"]
    (cell,) = evaluate(Subject("conformance/undecided", {"common": m}, [{"N": 2}, {"N": 3}]), [INPUT])
    assert cell.verdict == "ok" and cell.unchecked == {}, cell
    spec = cell.coverage["spec_rules"]
    assert spec["not_applicable"] == 1 and "not a constant" in spec["reasons"]["reshape-shape@Reshape_1"]
    assert spec["checked"] > 0
    from passcheck.report.summary import spec_rules_line

    line = spec_rules_line([cell])
    assert line == f"spec rules: {spec['checked']} checked, 1 not applicable (1: input … is not a constant)"


def test_a_form_breaking_a_rule_is_the_forms_fault_and_a_pass_keeping_it_is_not_blamed():
    bad = _model(LET_THROUGH[0][1])
    subject = Subject("conformance/form", {"common": bad}, [{}, {}])
    with registered_pass(as_adapter(lambda m: m, "user:keep")) as pid:
        cells = {c.pass_id: c for c in evaluate(subject, [pid])}
    (f,) = [f for f in cells[INPUT].findings if f.oracle == "conformance"]
    assert f.kind == "spec-violation" and f.details["blame"] == "form" and "not any pass" in f.message
    assert [f for f in cells[pid].findings if f.oracle == "conformance"] == []  # the pass wrote nothing new


def test_a_subgraph_node_is_judged_too():
    m = _model(
        "g (bool c, float[1,1,2,2] x) => (float[1,1,4,4] y) <float[4] sc = {1.,1.,2.,2.}> {"
        " y = If(c) <then_branch = t () => (float[1,1,4,4] a) "
        '{ a = Resize <mode = "linear", nearest_mode = "half_down"> (x, "", sc) },'
        ' else_branch = e () => (float[1,1,4,4] b) { b = Resize <mode = "linear"> (x, "", sc) }> }'
    )
    (v,) = conformance.evaluate(m).violations
    assert v.rule == "resize-nearest-mode" and v.node.startswith("If_0.then_branch::")


def test_no_library_form_breaks_a_documented_rule():
    """Every form of every hand-written case (the input cells of ``passcheck run``) is within the
    documented domains: a violation would be passcheck's own bug."""
    from passcheck._versions import tool_version
    from passcheck.cases import registry

    broken = []
    for case in registry().select([]):
        s = Subject.from_case(case, tool_version("onnx"))
        for form, m in s.forms.items() if not s.skip else ():
            if m is not None and (found := conformance.evaluate(m).violations):
                broken.append((case.id, form, [(v.rule, v.node, v.message) for v in found]))
    assert broken == []
