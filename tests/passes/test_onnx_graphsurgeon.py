"""onnx-graphsurgeon's passes (:mod:`passcheck.passes.onnx_graphsurgeon`) with the real package: each id runs
isolated and is judged by the ordinary oracles; a planted break of the adapter is caught; the tool's own
cast elision (row 1269) is a wrong result."""

from __future__ import annotations

import pytest
from onnx import parser

from passcheck.api import check_model
from passcheck.passes import get_pass
from passcheck.passes.onnx_graphsurgeon import ADAPTERS, VARIANTS, OnnxGraphsurgeonAdapter, call_text
from tests.passes._helpers import cell_of, script_apply

pytest.importorskip("onnx_graphsurgeon")

# A foldable constant branch, an Identity, a dead node, a value_info and a symbolic dim.
MODEL = parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 4] x) => (float[N, 4] y) <float[N, 4] i> {
  c = Constant <value = float[4] {1, 2, 3, 4}> ()
  d = Add (c, c)
  dead = Neg (x)
  i = Identity (x)
  y = Add (i, d)
}""")
WRONG = ("wrong-result", "invalid-model", "rejected", "missed-optimization")


def test_every_variant_runs_isolated_and_is_judged_without_a_finding():
    report = check_model(MODEL, [a.id for a in ADAPTERS], name="gs/plain")
    cells = {c.pass_id: c for c in report.cells if c.pass_id.startswith("onnx-gs:")}
    assert set(cells) == {f"onnx-gs:{v}" for v in VARIANTS}
    for pid, c in cells.items():
        assert c.status in ("changed", "unchanged"), (pid, c.status, c.error)
        assert c.versions.get("onnx-graphsurgeon"), c.versions
        assert not [f for f in c.findings if f.kind in WRONG], (pid, c.findings)
    assert cells["onnx-gs:cleanup"].nodes_after == 4  # the dead Neg is gone
    assert cells["onnx-gs:fold-constants"].nodes_after == 2  # Add(c, c) folded, the Constant cleaned up


def test_the_capabilities_are_declared_per_variant():
    assert get_pass("onnx-gs:fold-constants-partition").capabilities.folds_constants
    assert not get_pass("onnx-gs:cleanup").capabilities.folds_constants
    no_shapes = get_pass("onnx-gs:fold-constants-no-shapes")
    assert no_shapes.capabilities.folds_constants and not no_shapes.folds_shapes  # told to leave Shapes
    assert get_pass("onnx-gs:cleanup").capabilities.optimizes
    assert not get_pass("onnx-gs:round-trip").capabilities.optimizes
    assert call_text("fold-constants-no-shapes") == (
        "gs.export_onnx(graph.toposort().fold_constants(fold_shapes=False).cleanup())"
    )


def test_a_missing_package_is_unavailable_with_the_install_command(monkeypatch):
    import passcheck.passes._base as base

    monkeypatch.setattr(base, "tool_version", lambda name: None)
    assert get_pass("onnx-gs:round-trip").why_not(MODEL) == (
        "onnx-graphsurgeon is not installed (pip install onnx-graphsurgeon)"
    )


class _NoFold(OnnxGraphsurgeonAdapter):
    """A planted break: the fold variant's chain without ``fold_constants`` (its declaration kept)."""

    def __init__(self):
        super().__init__("fold-constants")
        self.id = "planted:gs-no-fold"

    def apply(self, model, workdir):
        import onnx_graphsurgeon as gs

        return gs.export_onnx(gs.import_onnx(model).toposort().cleanup())


class _DropsOperand(OnnxGraphsurgeonAdapter):
    """A planted break: the round trip with the last node's second input rewired to its first."""

    def __init__(self):
        super().__init__("round-trip")
        self.id = "planted:gs-drops-operand"

    def apply(self, model, workdir):
        import onnx_graphsurgeon as gs

        graph = gs.import_onnx(model)
        node = graph.nodes[-1]
        node.inputs[1] = node.inputs[0]
        return gs.export_onnx(graph)


def test_a_fold_variant_that_does_not_fold_is_a_missed_folding():
    cell = cell_of(_NoFold(), MODEL, "gs/planted-no-fold")
    assert ("folding", "missed-optimization") in {(f.oracle, f.kind) for f in cell.findings}, cell.findings


def test_an_adapter_that_changes_the_computation_is_a_wrong_result():
    cell = cell_of(_DropsOperand(), MODEL, "gs/planted-operand")
    assert "wrong-result" in {f.kind for f in cell.findings}, cell.findings


# Shape arithmetic through float (torch's ``int(size * 1.5)``): Cast(int64 → float), Mul by 1.5, Cast back; the
# shape's type annotated (gs elides only where it knows the integer type: a value_info, as shape inference writes).
SCALED = parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 4] x) => (int64[1] y) <int64[1] s> {
  s = Shape <start = 0, end = 1> (x)
  f = Cast <to = 1> (s)
  k = Constant <value = float {1.5}> ()
  m = Mul (f, k)
  y = Cast <to = 7> (m)
}""")


def test_the_tools_cast_elision_truncating_a_float_constant_is_a_wrong_result():
    """Row 1269: ``fold_constants`` elides the Cast pair and casts 1.5 to the int64 1; ``fold_shapes=False`` (no
    elision) computes ``int(N * 1.5)``."""
    report = check_model(SCALED, ["onnx-gs:fold-constants", "onnx-gs:fold-constants-no-shapes"], name="gs/elision")
    kinds = {c.pass_id: {f.kind for f in c.findings} for c in report.cells}
    assert "wrong-result" in kinds["onnx-gs:fold-constants"], kinds
    assert "wrong-result" not in kinds["onnx-gs:fold-constants-no-shapes"], kinds


@pytest.mark.parametrize("name", ["round-trip", "cleanup", "fold-constants", "fold-constants-no-shapes"])
def test_a_reproducer_calls_graphsurgeon_as_the_adapter_does(name, tmp_path):
    """The ``apply`` a standalone script embeds (:func:`passcheck.repro.tools.tool_call`) gives the adapter's model and
    leaves the script's model as given; the script needs and prints onnx-graphsurgeon."""
    import onnx

    from passcheck.repro.tools import VERSIONED_EXTRAS, package, tool_call

    call = tool_call(f"onnx-gs:{name}")
    assert call is not None and call.needs == ("onnx-graphsurgeon",) and "onnx-graphsurgeon" in VERSIONED_EXTRAS
    assert package(f"onnx-gs:{name}") == "onnx-graphsurgeon"
    given = onnx.ModelProto.FromString(MODEL.SerializeToString())
    ours = script_apply(call)(given)
    assert given.SerializeToString() == MODEL.SerializeToString()
    theirs = get_pass(f"onnx-gs:{name}").apply(onnx.ModelProto.FromString(MODEL.SerializeToString()), tmp_path)
    assert ours.graph.SerializeToString(deterministic=True) == theirs.graph.SerializeToString(deterministic=True)
    assert tool_call("onnx-gs:no-such-variant") is None


def _sparse_constant():
    """``y = x + Constant(sparse_value=…)``: an attribute of a type gs's importer skips (SPARSE_TENSOR)."""
    import onnx
    from onnx import TensorProto, helper

    values = helper.make_tensor("v", TensorProto.FLOAT, [1], [2.0])
    indices = helper.make_tensor("i", TensorProto.INT64, [1], [1])
    sparse = helper.make_sparse_tensor(values, indices, [3])
    g = helper.make_graph(
        [helper.make_node("Constant", [], ["c"], sparse_value=sparse), helper.make_node("Add", ["x", "c"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def test_an_attribute_type_gs_says_it_skips_is_unavailable():
    report = check_model(_sparse_constant(), ["onnx-gs:round-trip"], name="gs/sparse")
    (cell,) = [c for c in report.cells if c.pass_id == "onnx-gs:round-trip"]
    assert cell.status == "unavailable" and "SPARSE_TENSOR" in (cell.error or ""), (cell.status, cell.error)
    assert not cell.findings, cell.findings


def test_without_the_stated_limit_the_skipped_attribute_is_an_invalid_model(tmp_path, monkeypatch):
    """Planted: the adapter no longer reads gs's tables, so gs drops the attribute and the Constant is invalid."""
    import onnx

    from passcheck.passes import onnx_graphsurgeon

    monkeypatch.setattr(onnx_graphsurgeon, "skipped_attribute_types", lambda model: [])
    out = get_pass("onnx-gs:round-trip").run(_sparse_constant(), tmp_path)
    assert out.status in ("changed", "unchanged"), (out.status, out.error)
    with pytest.raises((onnx.checker.ValidationError, onnx.shape_inference.InferenceError)):
        onnx.checker.check_model(out.model, full_check=True)
