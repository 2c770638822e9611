"""A pass that writes a graph it rewrote nothing in as given (onnxruntime: ``Graph::ToGraphProto`` returns the loaded
GraphProto unless a transformer changed the graph) shows its inference only on forms it rewrote: an output kept as
declared there is no ``less-precise`` (round 19m: 13 of the 16 ``ort:extended`` / ``ort:all`` signatures of round
19d's contrib hunt were this). A form the pass did rewrite is still compared, and the message names the node, the
element type and each dim known less. Real onnxruntime and planted passes."""

from __future__ import annotations

import onnx
from onnx import parser

from passcheck.api import check_model
from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

HEAD = """<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] x) => (float[?, ?] y) {"""
#: ort:extended changes nothing here: its saved model is this graph, ``y: [?, ?]`` as declared.
PLAIN = HEAD + " y = Relu (x) }"
#: ort:extended removes the Identity: the graph is written from its inferred types, ``y: [2, 3]``.
THROUGH_IDENTITY = HEAD + " r = Relu (x)  y = Identity (r) }"


def _less_precise(report, pass_id):
    return [
        (f.form, f.message)
        for c in report.cells
        if c.pass_id == pass_id
        for f in c.findings
        if f.kind == "less-precise"
    ]


def _pair_findings(common: str, identity: str, pass_id: str, name: str):
    """The ``less-precise`` findings (form, message) of real onnxruntime ``pass_id`` on the pair of model texts."""
    report = check_model(
        parser.parse_model(common), [pass_id], forms={"identity": parser.parse_model(identity)}, name=name
    )
    cells = {c.form: c for c in report.cells if c.pass_id == pass_id}
    assert set(cells) == {"common", "identity"} and all(c.status in ("changed", "unchanged") for c in cells.values())
    return _less_precise(report, pass_id)


def test_onnxruntime_keeping_an_unchanged_graph_as_declared_is_no_less_precise():
    assert _pair_findings(PLAIN, THROUGH_IDENTITY, "ort:extended", "parity/written-as-given") == []


COMMON = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3, 4] x) => (float[A, 3, 4] y) { t = Neg(x)  y = Neg(t) }"""
DETOUR = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3, 4] x) => (float[A, 3, 4] y) { t = Neg(x)  u = Identity(t)  y = Neg(u) }"""


def _refine_common(model: onnx.ModelProto, rename_detour: bool) -> onnx.ModelProto:
    """Planted pass: ``common``'s output becomes ``[2, 3, 4]``; ``detour`` is returned as given, or with one node
    renamed (a rewrite) and its output still ``[A, 3, 4]``."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    if len(model.graph.node) == 2:
        out.graph.output[0].type.tensor_type.shape.dim[0].ClearField("dim_param")
        out.graph.output[0].type.tensor_type.shape.dim[0].dim_value = 2
    elif rename_detour:
        out.graph.node[0].name = "renamed"
    return out


def _evaluate(rename_detour: bool, writes_given_unchanged: bool):
    pid = f"planted:refine-common-{int(rename_detour)}{int(writes_given_unchanged)}"
    adapter = FunctionAdapter(pid, lambda m: _refine_common(m, rename_detour))
    adapter.writes_given_unchanged = writes_given_unchanged  # type: ignore[misc]
    register_pass(adapter)
    try:
        subject = Subject(
            "parity/written-as-given",
            {"common": parser.parse_model(COMMON), "detour": parser.parse_model(DETOUR)},
            [{}, {}],
        )
        cells = evaluate(subject, [pid], check_input=False)
    finally:
        unregister_pass(pid)
    return [f for c in cells for f in c.findings if f.kind == "less-precise"]


def test_a_pass_that_does_not_declare_it_is_still_blamed():
    [f] = _evaluate(rename_detour=False, writes_given_unchanged=False)
    assert f.form == "detour" and f.details["other_form"] == "common"


def test_a_declaring_pass_that_returned_the_form_as_given_is_not_blamed():
    assert _evaluate(rename_detour=False, writes_given_unchanged=True) == []


def test_a_declaring_pass_that_rewrote_the_form_is_blamed_with_node_dtype_and_dims():
    [f] = _evaluate(rename_detour=True, writes_given_unchanged=True)
    assert f.form == "detour"
    assert f.message.endswith(
        "(which holds at run time); float32, produced by Neg #2 (in the pass output of 'detour'); "
        'less known: dim 0 "A" vs 2'
    ), f.message
    assert f.details["node"] == "Neg #2" and f.details["dtype"] == "float32" and f.details["dims"] == [[0, '"A"', "2"]]


#: Round 24e: a Constant beside the untouched output's producer. onnxruntime turns it into an initializer when it
#: loads the graph (every level), so its saved model differs from the input by that conversion only: ``y`` keeps its
#: declared ``[?, ?]`` while the Identity form is rewritten and written with ``[2, 3]``.
WITH_CONSTANT = HEAD + " e = Constant <value = float {1.0}> ()  r = Relu (x)  y = Add (r, e) }"
WITH_CONSTANT_IDENTITY = (
    HEAD + " e = Constant <value = float {1.0}> ()  r = Relu (x)  s = Add (r, e)  y = Identity (s) }"
)


def _constant_pair_findings():
    return _pair_findings(WITH_CONSTANT, WITH_CONSTANT_IDENTITY, "ort:basic", "parity/written-as-given-constant")


def test_a_constant_onnxruntime_loads_as_an_initializer_is_no_rewrite(monkeypatch):
    assert _constant_pair_findings() == []
    # planted: the comparison before round 24e (protobuf equality) counts the load-time conversion as a rewrite
    from passcheck.oracles import parity

    monkeypatch.setattr(
        parity, "returned_as_given", lambda run: run.output is not None and run.output.graph == run.model.graph
    )
    [(form, message)] = _constant_pair_findings()
    assert form == "common" and "[?, ?]" in message and "[2, 3]" in message, message
