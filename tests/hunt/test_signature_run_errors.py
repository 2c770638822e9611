"""An output that fails to run is one signature per error phrase (passcheck/signature.py), not one per
op at the rewritten sites: the onnx version converter drops model-local functions, so every op wrapped
in a function fails the same way, and a hunt must report that once."""

from __future__ import annotations

import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, version_converter

from passcheck.records import Finding
from passcheck.signature import Signature, error_phrase


def _wrapped(op: str) -> onnx.ModelProto:
    fn = helper.make_function(
        "org.passcheck.local",
        f"{op}_fn0",
        ["x"],
        ["y"],
        [helper.make_node(op, ["x"], ["y"])],
        [helper.make_opsetid("", 18)],
    )
    call = helper.make_node(f"{op}_fn0", ["a"], ["b"], domain="org.passcheck.local")
    graph = helper.make_graph(
        [call],
        "g",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [2])],
    )
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid("org.passcheck.local", 1)]
    return helper.make_model(graph, opset_imports=opsets, functions=[fn], ir_version=10)


def _run_error(model: onnx.ModelProto) -> str:
    try:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as e:  # the runtime's own message, as the numeric oracle records it
        return str(e)
    pytest.skip("this onnx version converter keeps model-local functions: no run error to group")


def _finding(op: str, error: str | None) -> Finding:
    details = {"error": error} if error else {"kept_op_types": [op]}
    return Finding(
        "wrong-result", "numeric", "c", f"node-as-local-function@{op}_0", "onnx:convert-opset-down", "m", details
    )


def test_a_run_error_is_one_signature_whatever_op_the_function_wraps():
    errors = {op: _run_error(version_converter.convert_version(_wrapped(op), 17)) for op in ("Relu", "Abs")}
    sigs = {op: Signature.of(_finding(op, e), models=[_wrapped(op)], labels=[f"{op}_0"]) for op, e in errors.items()}
    assert sigs["Relu"] == sigs["Abs"], sigs
    assert sigs["Relu"].ops == () and "is not a registered function/op" in sigs["Relu"].error
    assert sigs["Relu"].rewrite == "node-as-local-function"
    # the op types stay in an alias (not compared): a documented entry's ops_all still reads them
    assert [a.split("|")[3] for a in sigs["Relu"].aliases] == ["Relu_fn0"]  # the op type at the site: the call
    assert [a.split("|")[3] for a in sigs["Abs"].aliases] == ["Abs_fn0"]
    assert Signature.of(_finding("Relu", errors["Relu"])).aliases == ()  # no pair at hand: no op to keep
    value = Finding("wrong-result", "numeric", "c", "node-as-local-function@Relu_0", "onnx:convert-opset-down", "m", {})
    differs = Signature.of(value, models=[_wrapped("Relu")], labels=["Relu_0"])
    assert differs.key not in sigs["Relu"].aliases  # a value difference at the same sites stays another signature


def test_a_numeric_difference_keeps_its_op_types():
    a, b = Signature.of(_finding("Relu", None)), Signature.of(_finding("Abs", None))
    assert a != b and a.ops == ("Relu",) and a.error == ""


def test_the_phrase_masks_names_and_numbers_but_keeps_the_behaviour():
    relu = error_phrase("[ONNXRuntimeError] : 1 : FAIL : Fatal error: x.y:Relu_fn0(-1) is not a registered function/op")
    assert relu == "FAIL : Fatal error: #(#) is not a registered function/op"
    kernel = error_phrase("[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for Mean(13)")
    assert kernel != relu and "Mean(#)" in kernel
    prefixed = error_phrase(
        "Fail: [ONNXRuntimeError] : 1 : FAIL : Fatal error: x.y:Abs_fn0(-1) is not a registered function/op"
    )
    assert prefixed == "Fail: " + relu
    assert error_phrase(None) == "" and error_phrase("a|b\nsecond line") == "a/b"
