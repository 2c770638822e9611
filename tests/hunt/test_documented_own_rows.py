"""A fresh finding of each of rows 967, 1411, 1441 and 1442 meets its own row (round 23d, M546).

Row 967 is onnxruntime's symbolic shape inference (and ``quant_pre_process``, which runs it) replacing each graph
output's ValueInfoProto: "the graph's interface" findings. Its rules once named the pass, oracle and kind only, so
they claimed ``ort-quant:pre-process``'s "the model itself (graph metadata_props)" finding too, which is row 1411's
(the optimized model saved without the graph's metadata_props; ``quant_pre_process`` runs the optimizer). The
findings here come from the real tools: onnxruntime's pre-processing and ORT format round trip, onnx's strict
inference through the inference probes."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.engine import Subject, evaluate
from passcheck.hunt import documented
from passcheck.oracles import inference_probes, registry
from passcheck.oracles._contract import INPUT
from passcheck.signature import Signature

pytest.importorskip("onnxruntime")


def _row(pass_id: str, finding, ops: tuple[str, ...]) -> str | None:
    sig = Signature(pass_id, finding.oracle, finding.kind, ops, "", "")
    entry = documented.which(sig.key, {"signature": sig.to_json(), "message": finding.message})
    return entry and entry["row"]


def _described() -> onnx.ModelProto:
    """``y = Relu(Identity(x))`` (the optimizer removes the Identity, so onnxruntime saves its own graph), ``y``
    with a doc_string, the graph with a doc_string and one metadata_props entry (IR.md §Graphs, IR 10), opset 18."""
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    y.doc_string = "the output"
    g = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["i"]), helper.make_node("Relu", ["i"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [y],
        doc_string="the graph",
    )
    g.metadata_props.add(key="k", value="v")
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=10)


def test_pre_process_interface_findings_are_row_967_and_its_graph_metadata_finding_row_1411():
    passes = ["ort-quant:pre-process", "ort-format:basic"]
    cells = evaluate(Subject("rows/described", {"common": _described()}, [{}]), passes)
    got = {
        (c.pass_id, f.message.split(" says of ", 1)[1].split(" (", 1)[0]): _row(c.pass_id, f, ("Identity", "Relu"))
        for c in cells
        for f in c.findings
        if f.kind == "description-dropped"
    }
    assert got[("ort-quant:pre-process", "the graph's interface")] == "967"
    assert got[("ort-quant:pre-process", "the model itself")] == "1411"
    # its graph doc_string (graph metadata_props: the format clears them)
    assert got[("ort-format:basic", "the model itself")] == "1442"


def test_an_accepted_axis_of_an_old_schema_is_row_1441():
    """``r = ArgMax(x, axis=0)``, ``s = Softmax(x, axis=1)``, ``x: float[2, 3]``, opset 9: the probes set each axis
    to 2, which onnx's opset-1 inference functions accept (row 1441)."""
    f = TensorProto.FLOAT
    g = helper.make_graph(
        [helper.make_node("ArgMax", ["x"], ["r"], axis=0), helper.make_node("Softmax", ["x"], ["s"], axis=1)],
        "g",
        [helper.make_tensor_value_info("x", f, [2, 3])],
        [helper.make_tensor_value_info("r", TensorProto.INT64, [1, 3]), helper.make_tensor_value_info("s", f, [2, 3])],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 9)], ir_version=8)
    with registry.registered(inference_probes.ORACLE):
        (cell,) = evaluate(Subject("rows/old-axes", {"common": m}, [{}]), [INPUT])
    found = [f for f in cell.findings if f.oracle == inference_probes.NAME]
    assert sorted(f.details["rule"] for f in found) == ["axis-ArgMax", "axis-Softmax"]
    assert {_row(INPUT, f, ("ArgMax", "Softmax")) for f in found} == {"1441"}
