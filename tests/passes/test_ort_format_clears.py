"""``ort-format:<level>`` and what the ORT format cannot hold: a body's doc_string is cleared by the format's own
schema (``PassAdapter.clears``), the main graph's doc_string is not (the format has a field for it)."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.passes.ort_format import OrtFormatAdapter, write_ort

pytest.importorskip("onnxruntime")

PASS = "ort-format:disabled"


def _model() -> onnx.ModelProto:
    """``y = If(c, then: Relu(x), else: Neg(x))``, the then body, the main graph and the model each with a
    doc_string (IR.md §Graphs: every graph, a body too, may have one), opset 18, IR 8."""
    f = TensorProto.FLOAT
    then = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["t"])], "then", [], [helper.make_tensor_value_info("t", f, [2, 3])]
    )
    then.doc_string = "then-body-doc"
    other = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["e"])], "else", [], [helper.make_tensor_value_info("e", f, [2, 3])]
    )
    g = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)],
        "g",
        [helper.make_tensor_value_info("x", f, [2, 3]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", f, [2, 3])],
        doc_string="main-graph-doc",
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    m.doc_string = "model-doc"
    return m


def _described(monkeypatch, clears=None) -> dict[str, list]:
    if clears is not None:
        monkeypatch.setattr(OrtFormatAdapter, "clears", clears)
    report = check_model(_model(), [PASS], isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == PASS]
    return {
        of: [f for f in cell.findings if f.kind == "description-dropped" and of in f.message]
        for of in ("the model itself", "its subgraphs")
    }


def test_the_format_holds_the_main_graph_doc_string_and_no_body_doc_string(tmp_path):
    """The real onnxruntime's ``.ort`` bytes: the main graph's doc_string is in them, the body's is not."""
    data = write_ort(_model().SerializeToString(), "disabled", tmp_path / "m.ort")
    assert b"main-graph-doc" in data and b"model-doc" in data
    assert b"then-body-doc" not in data


def test_a_body_doc_string_is_cleared_by_the_format_and_the_main_graphs_is_a_finding(monkeypatch):
    """Only the main graph's doc_string is reported (row 1442); without ``clears`` the body's is reported too —
    the planted break the declaration exists for."""
    found = _described(monkeypatch)
    (own,) = found["the model itself"]
    assert own.details["fields"] == ["graph doc_string"], own.message
    assert found["its subgraphs"] == []
    unstated = _described(monkeypatch, clears=frozenset())
    (body,) = unstated["its subgraphs"]
    assert "body doc_string" in body.details["fields"], body.message
