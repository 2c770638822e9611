"""The converters' opset boundary reads model-local function bodies (IR.md §Functions: a call means its body, whose
nodes are operators of the opsets the function imports). Before, a model whose ai.onnx nodes all sat in a function
was "not run" (no ai.onnx node), so no converter was judged on a body; onnxscript 0.6.2 converted bodies without
the call site's attribute values (docs/recall.md R92). Judged with onnx 1.23.2's schemas, onnxscript 0.7.2's
converter (it inlines first: right) and a planted one that skips the inlining, and onnxruntime runs."""

from __future__ import annotations

import contextlib

import onnx
from onnx import helper

from passcheck.passes.onnxscript_version_converter import OnnxscriptVersionConverterIrAdapter
from passcheck.passes.version_converter import opset_boundary
from tests.passes._helpers import cell_of


def _gridsample_in_function() -> onnx.ModelProto:
    """``Y = F<mode = "bilinear">(X, G)`` at opset 19, F's body ``GridSample<mode = @mode>(x, g)``: GridSample has a
    new version at 20 (mode "bilinear" became "linear", Operators.md GridSample-20)."""
    body = helper.make_node("GridSample", ["x", "g"], ["y"])
    ref = onnx.AttributeProto(name="mode", ref_attr_name="mode", type=onnx.AttributeProto.STRING)
    body.attribute.append(ref)
    fn = helper.make_function("local", "F", ["x", "g"], ["y"], [body], [helper.make_opsetid("", 19)], ["mode"])
    call = helper.make_node("F", ["X", "G"], ["Y"], domain="local", mode="bilinear")
    vi = helper.make_tensor_value_info
    graph = helper.make_graph(
        [call],
        "g",
        [vi("X", onnx.TensorProto.FLOAT, [1, 1, 3, 3]), vi("G", onnx.TensorProto.FLOAT, [1, 2, 2, 2])],
        [vi("Y", onnx.TensorProto.FLOAT, [1, 1, 2, 2])],
    )
    opsets = [helper.make_opsetid("", 19), helper.make_opsetid("local", 1)]
    return helper.make_model(graph, functions=[fn], opset_imports=opsets, ir_version=9)


def test_a_body_op_sets_the_boundary():
    model = _gridsample_in_function()
    assert opset_boundary(model, "up")[0] == 20


@contextlib.contextmanager
def _no_inlining():
    """A planted converter: onnxscript's ``ConvertVersionPass`` without its InlinePass (as 0.6.2 ran it: bodies
    converted on their own, the call site's ``mode`` never seen)."""
    from onnx_ir.passes import common as common_passes
    from onnxscript import version_converter

    kept = common_passes.InlinePass

    class _Skip(common_passes.RemoveUnusedOpsetsPass):
        pass

    version_converter.common_passes.InlinePass = _Skip
    try:
        yield
    finally:
        version_converter.common_passes.InlinePass = kept


class _Ir(OnnxscriptVersionConverterIrAdapter):
    id = "onnxscript:test-convert-functions-ir"


class _NoInline(_Ir):
    id = "onnxscript:test-convert-functions-no-inline"

    def apply(self, model, workdir):
        with _no_inlining():
            return super().apply(model, workdir)


def test_a_converter_that_converts_bodies_without_their_call_sites_is_found():
    model = _gridsample_in_function()
    real = cell_of(_Ir(), model, "converter-functions/gridsample")
    assert real.status == "changed" and real.verdict == "ok", (real.status, real.findings)
    planted = cell_of(_NoInline(), model, "converter-functions/gridsample-no-inline")
    assert planted.verdict != "ok", (planted.status, planted.findings)


def test_the_all_attributes_function_form_passes_a_defaulted_mode_by_reference():
    """``node-as-local-function-all-attributes`` on the generated GridSample-16 base at opset 19 (mode left to its
    default "bilinear"): the call writes it and the body reads ``@mode``; 0.7.2's converter is right on it, the
    planted one (no InlinePass) is not."""
    from passcheck.cases import registry
    from passcheck.mutations import forms

    base = registry().get("generated/gridsample-16.opset").forms["opset19"].build()
    assert not [a for a in base.graph.node[0].attribute if a.name == "mode"]
    model, _ = forms.build(forms.named(base), "node-as-local-function-all-attributes")
    onnx.checker.check_model(model, full_check=True)
    call, body = model.graph.node[0], model.functions[0].node[0]
    assert {a.name: a.s for a in call.attribute}["mode"] == b"bilinear"
    assert {a.name: a.ref_attr_name for a in body.attribute}["mode"] == "mode"
    assert cell_of(_Ir(), model, "converter-functions/all-attributes").verdict == "ok"
    assert cell_of(_NoInline(), model, "converter-functions/all-attributes-no-inline").verdict != "ok"
