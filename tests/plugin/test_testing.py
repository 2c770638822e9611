"""passcheck.testing without the plugin: the helpers resolve every kind of pass, judge only the
pass's cells, and fail with the structured finding text."""

from __future__ import annotations

import onnx
import onnx_ir as ir
import pytest

from passcheck.errors import PasscheckError, UnknownIdError
from passcheck.passes import FunctionAdapter, get_pass
from passcheck.testing import (
    FindingsError,
    as_adapter,
    assert_model_ok,
    check_model_passes,
    check_pass,
    format_findings,
    pass_id_of,
)
from tests.quality.planted import negate_everything


class ScaleWeights(ir.passes.InPlacePass):
    """Planted bug: perturbs every float initializer by 1%."""

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        for value in model.graph.initializers.values():
            value.const_value = ir.tensor(value.const_value.numpy() * 1.01, name=value.name)
        return ir.passes.PassResult(model, True)


def test_pass_kinds_resolve_to_adapters():
    assert as_adapter("ort:basic") is get_pass("ort:basic")
    assert isinstance(as_adapter(ScaleWeights()), FunctionAdapter)
    assert pass_id_of(ScaleWeights()) == "user:ScaleWeights"
    assert pass_id_of(lambda m: m) == "user:test_pass_kinds_resolve_to_adapters.<lambda>"
    with pytest.raises(PasscheckError, match="expected a pass id"):
        as_adapter(42)
    with pytest.raises(UnknownIdError):
        as_adapter("ort:fastest")


def test_an_onnx_ir_pass_that_perturbs_weights_is_caught_with_the_tolerance_that_would_pass():
    found = check_pass(ScaleWeights(), "optional-input/conv-add", oracles=["numeric"])
    assert {f.form for f in found} == {"common", "empty-name"}
    assert all(f.kind == "wrong-result" and f.pass_id == "user:ScaleWeights" for f in found)
    text = format_findings(found)
    assert "would pass with: atol >= " in text and "reproduce: python -c" in text
    assert check_pass(ScaleWeights(), "optional-input/conv-add", oracles=["parity"]) == []
    with pytest.raises(UnknownIdError):
        check_pass(ScaleWeights(), "optional-input/conv-add", oracles=["speed"])


def test_a_taken_pass_id_is_refused():
    with pytest.raises(PasscheckError, match="already taken"):
        check_pass(FunctionAdapter("ort:basic", lambda m: m), "optional-input/conv-add")


def test_assert_model_ok_reports_a_wrong_value_info_on_the_input_itself():
    from passcheck.cases import registry

    model = registry().get("optional-input/conv-add").build("common")
    model.graph.value_info.append(onnx.helper.make_tensor_value_info("c", onnx.TensorProto.FLOAT, ["N", 5, 8, 8]))
    assert {f.pass_id for f in check_model_passes(model, ["ort:disabled"], include_input=False)} == {"ort:disabled"}
    with pytest.raises(FindingsError) as info:
        assert_model_ok(model, ["ort:disabled"], oracles=["annotations"])
    assert ("input", "annotation-violated") in {(f.pass_id, f.kind) for f in info.value.findings}
    assert "axis 1 annotated 5" in str(info.value)


#: A form onnxruntime cannot run (an op of an unregistered domain): there is no reference run.
UNRUNNABLE = """<ir_version: 8, opset_import: ["" : 18, "custom.x" : 1]>
g (float[2, 3] x) => (float[2, 3] y) { y = custom.x.Twice(x) }"""


def test_outputs_never_compared_are_not_a_pass():
    """Issue 11 item 3: without a reference run nothing was compared, so assert_model_ok fails
    with the reason (it used to pass green)."""
    model = onnx.parser.parse_model(UNRUNNABLE)
    with pytest.raises(FindingsError) as info:
        assert_model_ok(model, [negate_everything], include_input=False)
    text = str(info.value)
    assert info.value.findings == [] and len(info.value.unchecked) == 1
    assert "not checked" in text and "output 'y'" in text and "the unoptimized run of form 'common' fails" in text
    assert (
        check_model_passes(model, [negate_everything], include_input=False, oracles=["numeric"]) == []
    )  # no finding, but...
    with pytest.raises(FindingsError):
        assert_model_ok(model, [negate_everything], include_input=False, oracles=["numeric"])
    assert_model_ok(
        model, [negate_everything], include_input=False, oracles=["annotations"]
    )  # not the numeric oracle's part


def relu_as_identity(model: onnx.ModelProto) -> onnx.ModelProto:
    """A planted pass: every Relu becomes an Identity, so each negative input's 0 comes back negative."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    for node in out.graph.node:
        if node.op_type == "Relu":
            node.op_type = "Identity"
    return out


def test_the_tolerance_hint_offers_no_rtol_where_an_output_expected_0_differs():
    x = onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [64])
    y = onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [64])
    graph = onnx.helper.make_graph([onnx.helper.make_node("Relu", ["x"], ["y"])], "relu", [x], [y])
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 17)])
    found = check_model_passes(model, [relu_as_identity], oracles=["numeric"], include_input=False)
    assert found and all(f.kind == "wrong-result" for f in found)
    text = format_findings(found)
    assert "would pass with: atol >= " in text
    assert "no rtol alone: an element expected 0 differs" in text and "e+307" not in text
