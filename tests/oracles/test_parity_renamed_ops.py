"""Parity's "the pass removed every node of an op type in one form and kept some in the other" counts
only the nodes both forms have in common: when a spelling renames ops (Expand written as Tile), the
other form's extra nodes of that type are its spelling, not a fusion the pass declined."""

from __future__ import annotations

from onnx import parser

from passcheck.oracles._context import FormRun
from passcheck.oracles.parity import _kept
from passcheck.passes import get_pass

_HEAD = '<ir_version: 8, opset_import: ["" : 18]>\n'
# e1 reads only constants (constant folding removes it); the second Expand reads the graph input x
COMMON = (
    _HEAD
    + """g (float[2, 1] x) => (float[2, 3] y) {
  c = Constant <value = float[1, 3] {1, 2, 3}> ()
  s = Constant <value = int64[2] {2, 3}> ()
  e1 = Expand (c, s)
  e2 = Expand (x, s)
  y = Add (e1, e2)
}"""
)
# the same computation with the second Expand written Tile(x, [1, 3]) (tile-as-expand's inverse spelling)
TILED = (
    _HEAD
    + """g (float[2, 1] x) => (float[2, 3] y) {
  c = Constant <value = float[1, 3] {1, 2, 3}> ()
  s = Constant <value = int64[2] {2, 3}> ()
  r = Constant <value = int64[2] {1, 3}> ()
  e1 = Expand (c, s)
  e2 = Tile (x, r)
  y = Add (e1, e2)
}"""
)


def _run(form, text, tmp_path):
    model, out = parser.parse_model(text), tmp_path / form
    out.mkdir(exist_ok=True)
    outcome = get_pass("ort:basic").run(model, out)
    assert outcome.model is not None, outcome
    return FormRun("c", form, "ort:basic", model, outcome, [], [], [])


def test_a_renamed_op_is_not_an_op_type_the_other_form_kept(tmp_path):
    common, tiled = _run("common", COMMON, tmp_path), _run("tiled", TILED, tmp_path)
    ops = lambda r: sorted(n.op_type for n in r.outcome.model.graph.node)  # noqa: E731
    # onnxruntime folded the constant Expand in both; the one reading x stays, as Expand or as Tile
    assert ops(common) == ["Add", "Expand"] and ops(tiled) == ["Add", "Tile"], (ops(common), ops(tiled))
    assert _kept(tiled, common) == []
    assert _kept(common, tiled) == []


def test_a_shared_node_kept_in_one_form_only_is_still_reported(tmp_path):
    # the constant Expand kept: a form whose c is a graph input cannot fold it, and parity says so
    kept = COMMON.replace("g (float[2, 1] x)", "g (float[2, 1] x, float[1, 3] c)").replace(
        "  c = Constant <value = float[1, 3] {1, 2, 3}> ()\n", ""
    )
    folded, unfolded = _run("common", COMMON, tmp_path), _run("kept", kept, tmp_path)
    assert sorted(n.op_type for n in unfolded.outcome.model.graph.node) == ["Add", "Expand", "Expand"]
    assert _kept(folded, unfolded) == ["Expand"]  # equal counts (2, 2): folded removed 1, kept removed 0
    assert _kept(_run("tiled", TILED, tmp_path), unfolded) == ["Expand"]  # kept 2, more than its 1 extra
