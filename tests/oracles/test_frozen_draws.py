"""M508: a draw a pass froze into a constant is a ``folding`` ``wrong-result`` (passcheck.oracles.frozen_draws), on
onnx-graphsurgeon's real output (found.md row 1351) and its plain round trip, which keeps the draw."""

from __future__ import annotations

import pytest
from onnx import TensorProto, helper

from passcheck.oracles import folding, frozen_draws
from tests.oracles.test_oracle_power import _form_run

gs = pytest.importorskip("onnx_graphsurgeon")


def _noisy():
    """``y = x + RandomNormal(shape=[3])``, ``x: float[3]``, opset 17."""
    g = helper.make_graph(
        [helper.make_node("RandomNormal", [], ["r"], shape=[3]), helper.make_node("Add", ["x", "r"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_a_draw_folded_by_graphsurgeon_is_a_wrong_result():
    m = _noisy()
    folded = gs.export_onnx(gs.import_onnx(m).toposort().fold_constants(fold_shapes=False).cleanup())
    assert "RandomNormal" not in {n.op_type for n in folded.graph.node}  # the tool's behaviour this test relies on
    (found,) = frozen_draws.check(_form_run(m, [(3,)], output=folded))
    assert (found.oracle, found.kind, found.details["outputs"]) == ("folding", "wrong-result", ["y"])
    # the folding oracle reports it for a pass that does not declare folds_constants too
    assert [f.kind for f in folding.ORACLE.check(_form_run(m, [(3,)], output=folded), None)] == ["wrong-result"]


def test_a_kept_draw_is_no_finding():
    m = _noisy()
    kept = gs.export_onnx(gs.import_onnx(m))
    assert frozen_draws.check(_form_run(m, [(3,)], output=kept)) == []
    assert frozen_draws.check(_form_run(m, [(3,)])) == []  # the input cell itself
