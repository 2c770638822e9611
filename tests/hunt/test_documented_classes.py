"""Documented defects met again under other spellings are known by their ``match`` rules (passcheck/hunt/documented.py,
documented.json; M94): the findings real passes give on minimal models of found.md rows 122 and 124 and
found-envs.md S1 are each the row's, through every rule of a row given as a list (row 122's wrong shape is a numeric
and an annotations finding), and no rule takes a finding of another pass."""

from __future__ import annotations

import pytest
from onnx import parser

from passcheck.hunt import documented
from passcheck.signature import Signature

# found.md row 122: an erf-GELU whose `half` outranks x (FusionGelu compares the constants' values, not shapes).
GELU = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4, 8] x) => (float[1, N, 4, 8] y)
  <float s2 = {1.4142135}, float one = {1.0}, float[1, 1, 1, 1] half = {0.5}> {
  d = Div (x, s2)  e = Erf (d)  f = Add (e, one)  h = Mul (x, f)  y = Mul (half, h) }""")
# found.md row 124: the If computing `d` is read only inside the other If's branches (prune_graph drops it).
IFS = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4, 8] x) => (float[N, 4, 8] e) <float s2 = {1.4142135}> {
  xs = ReduceSum <keepdims = 0> (x)
  c = IsNaN (xs)
  d = If (c) <then_branch = t1 () => (float[N, 4, 8] dt) { dt = Div (x, s2) },
              else_branch = e1 () => (float[N, 4, 8] de) { de = Div (x, s2) }>
  e = If (c) <then_branch = t2 () => (float[N, 4, 8] et) { et = Erf (d) },
              else_branch = e2 () => (float[N, 4, 8] ee) { ee = Erf (d) }> }""")
# found-envs.md S1: the converter drops model.functions.
FUNCTION = parser.parse_model("""<ir_version: 8, opset_import: ["" : 12, "local" : 1]>
g (float[2, 3] x) => (float[2, 1] y) { s = local.scaled_relu (x)  y = ReduceSum <axes = [1]> (s) }
<domain: "local", opset_import: ["" : 12]>
scaled_relu (a) => (b) { r = Relu (a)  b = Add (r, a) }""")


def _row(finding) -> str | None:
    """The documented row a finding's hunt signature (any rewrite) is, by the entries' rules."""
    sig = Signature.of(finding).replace(rewrite="vary:some-other-spelling")
    rec = {"signature": sig.to_json(), "message": finding.message, "case": sig.case_id}
    entry = documented.which(sig.key, rec)
    return None if entry is None else entry["row"]


@pytest.mark.parametrize(
    ("model", "pass_id", "rows"),
    [
        (GELU, "ort-transformers:gpt2", {("numeric", "122"), ("annotations", "122")}),
        (IFS, "ort-transformers:conformer", {("validity", "124")}),
        (FUNCTION, "onnx:convert-opset-up", {("numeric", "S1")}),
    ],
    ids=["row-122", "row-124", "S1"],
)
def test_a_documented_defect_is_known_whatever_the_spelling(model, pass_id, rows):
    from passcheck.api import check_model

    report = check_model(model, [pass_id], name="documented/class")
    found = {(f.oracle, _row(f)) for f in report.findings if f.pass_id == pass_id}
    assert rows <= found, found


def test_the_rules_hold_no_other_pass():
    sig = Signature("ort:all", "validity", "invalid-model", ("Div", "Erf"), "node-in-if-opaque", "ValidationError")
    words = (
        "the checker rejects the output of ort:all: ValidationError: Nodes in a graph must be topologically sorted, "
        "however input 'd' of node: name: n OpType: Erf is not output of any previous nodes. ==> Context: Bad node "
        "spec for node. Name: n_if OpType: If"
    )
    assert documented.which(sig.key, {"signature": sig.to_json(), "message": words, "case": sig.case_id}) is None
    assert [len(documented.rules(e)) for e in documented.entries() if e["row"] == "122" and "match" in e] == [2]
