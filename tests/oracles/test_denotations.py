"""The denotations oracle: a declared type the pass keeps keeps its type and dimension denotations
(IR.md §Type Denotation, onnx docs/DimensionDenotation.md), judged with real passes and planted ones."""

from __future__ import annotations

import onnx
from onnx import parser

from passcheck.engine import Subject, evaluate
from passcheck.mutations import denotations
from passcheck.testing import as_adapter
from passcheck.testing import registered as registered_pass

SOFTMAX = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 3] x) => (float[N, 3] y) <float[N, 3] a> { a = Relu(x)  y = Softmax<axis = -1>(a) }"""


def _denoted() -> onnx.ModelProto:
    """The model of docs/found.md rows 280–282: ``y = Softmax(Relu(x))``; ``x``, ``y`` and value_info
    ``a`` declared ``float[N, 3]``, labelled by the ``add-denotations`` rewrite (TENSOR, DATA_FEATURE)."""
    m = parser.parse_model(SOFTMAX)
    assert denotations.add(m) == ["x", "y", "a"]
    return m


def _findings(pass_id: str, model: onnx.ModelProto | None = None):
    subject = Subject("denotations/softmax", {"common": model or _denoted()}, [{"N": 2}, {"N": 3}])
    (cell,) = [c for c in evaluate(subject, [pass_id], check_input=False) if c.pass_id == pass_id]
    assert cell.verdict != "error", cell
    return [f for f in cell.findings if f.oracle == "denotations"]


def _edited(edit):
    def run(m: onnx.ModelProto) -> onnx.ModelProto:
        out = onnx.ModelProto()
        out.CopyFrom(m)
        edit(out.graph)
        return out

    return run


def _planted(edit, model=None):
    with registered_pass(as_adapter(_edited(edit), "user:denotation-edit")) as pid:
        return _findings(pid, model)


def test_the_version_converter_and_the_onnxscript_optimizer_drop_labels_and_are_reported():
    """docs/found.md rows 280 and 281."""
    found = _findings("onnx:convert-opset-17")
    assert {f.kind for f in found} == {"denotation-dropped"}
    assert {f.details["value"] for f in found} == {"x", "y", "a"}
    assert set(next(f for f in found if f.details["value"] == "y").details["labels"]) == {
        "denotation",
        "dim[0]",
        "dim[1]",
    }
    found = _findings("onnxscript:optimize")  # the graph input keeps its labels
    assert {(f.kind, f.details["value"]) for f in found} == {("denotation-dropped", "y"), ("denotation-dropped", "a")}


def test_onnx_shape_inference_keeps_the_labels_and_nothing_is_reported():
    assert _findings("onnx:infer-shapes") == []


def test_a_planted_pass_that_drops_one_label_is_caught_and_the_same_pass_keeping_it_is_not():
    def drop(g):
        g.output[0].type.tensor_type.shape.dim[1].denotation = ""

    (f,) = _planted(drop)
    assert (f.kind, f.details["value"], list(f.details["labels"])) == ("denotation-dropped", "y", ["dim[1]"])
    assert _planted(lambda g: None) == []


def test_a_replaced_label_is_a_change_not_a_drop():
    def relabel(g):
        g.value_info[0].type.denotation = "IMAGE"

    (f,) = _planted(relabel)
    assert f.kind == "denotation-changed" and f.details["labels"] == {"denotation": ["TENSOR", "IMAGE"]}


def test_a_removed_declaration_or_dim_and_an_unlabelled_model_are_not_judged():
    def remove(g):
        del g.value_info[:]  # value_info is optional
        shape = g.output[0].type.tensor_type.shape
        del shape.dim[1]  # the dim itself is gone: the shape, not its label, differs

    assert _planted(remove) == []

    plain = _denoted()
    for v in [*plain.graph.input, *plain.graph.output, *plain.graph.value_info]:
        v.type.denotation = ""
        for d in v.type.tensor_type.shape.dim:
            d.denotation = ""

    def label(g):  # a label the pass adds is no loss
        g.output[0].type.denotation = "TENSOR"

    assert _planted(label, plain) == []
