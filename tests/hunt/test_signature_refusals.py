"""A refusal's signature keys on its normalised words, not on its error class alone (passcheck/signature.py
``refusal_error``): the checker's and onnxruntime's real refusals, met on two bases whose names and op types
differ, are one signature; two refusals of one class with different words are two; the key passcheck gave a
refusal before (op types and the bare class) stays an alias, so baselines and documented entries match."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.records import Finding
from passcheck.signature import Signature, model_names, refusal_phrase


def _ir3(op: str, x: str, w: str, out: str = "y") -> onnx.ModelProto:
    """IR 3: an initializer must also be a graph input (IR.md §Graphs, before IR 4); this one is not."""
    g = helper.make_graph(
        [helper.make_node(op, [x, w], [out], name=f"n0_{op}")],
        "g",
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info(out, TensorProto.FLOAT, [2])],
        [numpy_helper.from_array(np.ones(2, np.float32), w)],
    )
    return helper.make_model(g, ir_version=3, opset_imports=[helper.make_opsetid("", 7)])


def _unproduced_output(op: str, x: str, w: str) -> onnx.ModelProto:
    """A graph output no node writes (IR.md §Graphs: every output is an input, an initializer or a
    node's output): another checker refusal of the same class."""
    m = _ir3(op, x, w)
    m.ir_version = 8
    m.graph.input.append(helper.make_tensor_value_info(w, TensorProto.FLOAT, [2]))
    m.graph.output.append(helper.make_tensor_value_info("lost", TensorProto.FLOAT, [2]))
    return m


def _checker_error(model: onnx.ModelProto) -> str:
    with pytest.raises(onnx.checker.ValidationError) as e:
        onnx.checker.check_model(model, full_check=True)
    return f"ValidationError: {e.value}"


def _invalid(pass_out: onnx.ModelProto, base: onnx.ModelProto, op: str) -> Signature:
    err = _checker_error(pass_out)
    f = Finding(
        "invalid-model", "validity", "c", "rename-values@x", "p:x", f"the checker rejects: {err}", {"error": err}
    )
    return Signature.of(f, "rename-values", [base, pass_out], ["x"])


def test_one_checker_refusal_on_two_bases_is_one_signature_and_its_old_key_an_alias():
    a = _invalid(_ir3("Add", "x", "w"), _ir3("Add", "x", "w"), "Add")
    b = _invalid(_ir3("Mul", "in_0", "scale_b"), _ir3("Mul", "in_0", "scale_b"), "Mul")
    assert a.key == b.key, (a.key, b.key)
    assert a.error == "ValidationError: … in initializer but not in graph input" and a.ops == ()
    assert a.aliases == ("p:x|validity|invalid-model|Add|rename-values|ValidationError",)


def test_two_checker_refusals_of_one_class_are_two_signatures():
    a = _invalid(_ir3("Add", "x", "w"), _ir3("Add", "x", "w"), "Add")
    c = _invalid(_unproduced_output("Add", "x", "w"), _ir3("Add", "x", "w"), "Add")
    assert a.aliases == c.aliases  # the class-only key joined them
    assert a.key != c.key and "is not an output of any node" in c.error


def _ort_error(model: onnx.ModelProto) -> str:
    with pytest.raises(Exception) as e:  # onnxruntime's own exception classes (Fail, InvalidGraph …)
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return f"{type(e.value).__name__}: {e.value}"


def _int_add(x: str, w: str) -> onnx.ModelProto:
    """An Add of float and int64 inputs: both must be T (Operators.md Add): onnxruntime refuses to load it."""
    g = helper.make_graph(
        [helper.make_node("Add", [x, w], ["y"], name="add")],
        "g",
        [
            helper.make_tensor_value_info(x, TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info(w, TensorProto.INT64, [2]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)], ir_version=8)


def test_one_onnxruntime_refusal_on_two_bases_is_one_signature():
    sigs = []
    for x, w in (("x", "w"), ("left", "right")):
        m = _int_add(x, w)
        err = _ort_error(m)
        f = Finding(
            "rejected", "runtime", "c", "common", "input", f"onnxruntime cannot run this form: {err}", {"error": err}
        )
        sigs.append(Signature.of(f, "", [m], []))
    assert sigs[0].key == sigs[1].key, [s.key for s in sigs]
    assert "left" not in sigs[1].error and "Add" in sigs[1].error


def test_a_crash_and_a_refusal_without_words_keep_their_keys():
    crashed = Finding(
        "rejected", "acceptance", "c", "common", "p", "p crashed", {"status": "crashed", "error": "the pass died"}
    )
    assert Signature.of(crashed).error == ""
    silent = Finding("invalid-model", "validity", "c", "common", "p", "rejected", {"error": ""})
    assert Signature.of(silent).error == ""
    # the schema's own words stay: a formal input name of three letters or more is not masked
    names = model_names([_ir3("Mul", "x", "scale")])
    assert "x" in names and "scale" not in names
    assert refusal_phrase("RuntimeError: adapt: x unavailable input: scale", names).endswith(
        "… unavailable input: scale"
    )


def test_a_documented_rule_naming_op_types_still_meets_a_refusal_through_its_older_key():
    """Row 661's rule (``ops_all: [Resize]``, onnx's words) on the refusal round 9f met (the pre-process output
    refused by the strict checker): the new key names no op, its alias does."""
    from passcheck.hunt import documented

    g = helper.make_graph(
        [helper.make_node("Resize", ["x", "", "sc"], ["y"], name="n0_Resize")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 5, 5])],
        [numpy_helper.from_array(np.array([1, 1, 1.6666666, 1.6666666], np.float32), "sc")],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
    err = (
        "InferenceError: [ShapeInferenceError] Inference error(s): (op_type:Resize, node name: n0_Resize): "
        "[ShapeInferenceError] Inferred shape and existing shape differ in dimension 2: (4) vs (5)"
    )
    f = Finding(
        # the symbolic shape inference pass (row 661 names it too): no digest of the row is this signature's
        "invalid-model",
        "validity",
        "c",
        "vary:value-floor-edge@sc",
        "ort:symbolic-shape-infer",
        err,
        {"error": err},
    )
    sig = Signature.of(f, "vary:value-floor-edge", [m, m], ["sc"])
    assert sig.ops == () and "op_type:Resize" in sig.error
    entry = documented.which(sig.key, {"signature": sig.to_json(), "message": f"the checker rejects: {err}"})
    assert entry is not None and entry["row"] == "661"


def _pre_process_crash(tmp_path, name: str, op: str) -> tuple[Finding, onnx.ModelProto]:
    """onnxruntime's quant_pre_process on a ModelProto with skip_symbolic_shape=True and an initializer no node
    reads (docs/found.md row 194): its error names the base's initializer and a temporary path; the real
    adapter's outcome."""
    from passcheck.passes import get_pass
    from passcheck.passes._base import run_in_process

    g = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"], name="n0")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(np.ones((2, 3), np.float32), name)],  # raw_data, read by no node
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    (tmp_path / name).mkdir()
    out = run_in_process(get_pass("ort-quant:pre-process-no-symbolic"), m, tmp_path / name)
    assert out.status == "crashed", out.error
    details = {"status": out.status, "error": out.error}
    return Finding("rejected", "acceptance", "c", "common", "ort-quant:pre-process-no-symbolic", "crashed", details), m


def test_one_crash_naming_each_bases_tensor_and_a_temporary_path_is_one_signature(tmp_path):
    (a, ma), (b, mb) = _pre_process_crash(tmp_path, "w", "Relu"), _pre_process_crash(tmp_path, "scale_0", "Neg")
    sa, sb = Signature.of(a, "", [ma], []), Signature.of(b, "", [mb], [])
    assert sa.key == sb.key and "foo.bin" not in sa.error and "@ onnxruntime:" in sa.error
    assert sa.aliases != sb.aliases  # the older spelling kept each tensor's name
