"""Triage files a form's violated annotation under the tool that wrote it (M195).

``SequenceConstruct`` of ``uint8[2, 3]`` and ``uint8[4, 3]``: onnx shape inference types the sequence
``seq(uint8[unk__0, 3])``, one symbol for elements of sizes 2 and 4. The ``inferred-value-info`` rewrite copies
that into the form's value_info; the run binds ``unk__0`` to two sizes. The annotation is onnx inference's (shown
by removing it and re-running onnx's inference), so triage files it under onnx, not under onnxruntime, the
runtime that ran the form. An annotation the author wrote (onnx's inference writes another) stays the runtime's.
Real onnx shape inference, real onnxruntime sessions."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.api import check_model
from passcheck.mutations.value_info import infer
from passcheck.oracles.inference_wrote import written_by_inference
from passcheck.records import INPUT
from passcheck.triage.candidates import group, tool_of

FEEDS = {"a": np.zeros((2, 3), np.uint8), "b": np.zeros((4, 3), np.uint8)}


def construct() -> onnx.ModelProto:
    """t = SequenceAt(SequenceConstruct(a, b), 1): a uint8[2, 3], b uint8[4, 3]."""
    nodes = [
        helper.make_node("SequenceConstruct", ["a", "b"], ["s"]),
        helper.make_node("SequenceAt", ["s", "p"], ["t"]),
    ]
    inputs = [helper.make_tensor_value_info(n, TensorProto.UINT8, [d, 3]) for n, d in (("a", 2), ("b", 4))]
    outputs = [helper.make_tensor_value_info("t", TensorProto.UINT8, [None, 3])]
    inits = [numpy_helper.from_array(np.array(1, np.int64), "p")]
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)], ir_version=6)


def form_findings(model: onnx.ModelProto) -> list:
    report = check_model(model, [], feeds=[FEEDS], name="triage/annotated-by", isolation=False)
    cells = [c for c in report.cells if c.pass_id == INPUT]
    return cells, [f for c in cells for f in c.findings if f.kind == "annotation-violated"]


def test_an_annotation_onnx_inference_wrote_on_the_form_is_filed_under_onnx():
    model = construct()
    assert infer(model) == ["s"]  # the real rewrite: onnx's inferred sequence type copied into the form
    assert written_by_inference(model, {"s"})  # the claim, verified: inference writes it again
    cells, (f,) = form_findings(model)
    assert "unk__0" in f.message and "the annotation is onnx inference's" in f.message, f.message
    assert f.details["annotated_by"] == "onnx" and tool_of(f) == "onnx"
    (cand,) = [c for c in group(cells) if c.finding.kind == "annotation-violated"]
    assert cand.tool == "onnx", cand


def test_an_annotation_the_author_wrote_stays_the_runtimes():
    model = construct()
    elem = helper.make_tensor_type_proto(TensorProto.UINT8, ["K", 3])
    model.graph.value_info.append(helper.make_value_info("s", helper.make_sequence_type_proto(elem)))
    assert written_by_inference(model, {"s"}) is None  # onnx writes unk__0, not K
    assert written_by_inference(model, {"t"}) is None  # a graph output: no value_info entry, the author's
    _, (f,) = form_findings(model)
    assert "K" in f.message and "annotated_by" not in f.details and tool_of(f) == "onnxruntime", f
