"""Outputs drawn from a random op are compared by dtype and shape only (issue 30, a hunt false
positive: a seeded RandomUniform form 'differed' from the same model, because onnxruntime draws
new numbers at every run). Real onnxruntime runs."""

from __future__ import annotations

from onnx import parser

from passcheck.api import check_model
from passcheck.oracles import numeric

DRAW = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[2, 3] y, float[2, 3] z) {
  r = RandomUniform <shape: ints = [2, 3]> ()
  i = Identity (x)
  y = Add (i, r)
  z = Relu (x)
}"""


def test_a_random_draw_is_compared_by_dtype_and_shape_only():
    report = check_model(parser.parse_model(DRAW), ["ort:basic"], name="numeric/random")
    (cell,) = [c for c in report.cells if c.pass_id == "ort:basic"]
    # ort:basic drops the Identity: its output runs in a new session, which draws new numbers
    assert cell.status == "changed" and not cell.findings, [f.message for f in cell.findings]
    assert cell.coverage.get("random_outputs") == ["y"]  # said, not silently skipped; z is compared as usual


def test_a_draw_of_another_shape_is_still_wrong():
    model = parser.parse_model(DRAW)
    assert numeric.drawn(model) == {"y"}
    assert numeric._same_kind([[0.5, 0.1]], [[0.2, 0.3]]) is None
    assert "shape" in numeric._same_kind([[0.5, 0.1]], [[0.2, 0.3, 0.4]])


def test_a_draw_inside_a_local_function_or_a_branch_is_a_draw_too():
    fn = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
g (float[2, 3] x) => (float[2, 3] y, float[2, 3] z) {
  r = local.Draw ()
  y = Add (x, r)
  z = Relu (x)
}
<domain: "local", opset_import: ["" : 18]>
Draw () => (out) { out = RandomNormal <shape: ints = [2, 3]> () }""")
    assert numeric.drawn(fn) == {"y"}
    branch = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (bool c, float[2, 3] x) => (float[2, 3] y) {
  y = If (c) <then_branch = t () => (float[2, 3] a) { a = RandomUniform <shape: ints = [2, 3]> () },
              else_branch = e () => (float[2, 3] b) { b = Identity (x) }>
}""")
    assert numeric.drawn(branch) == {"y"}
