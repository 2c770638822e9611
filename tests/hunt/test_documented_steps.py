"""A pass that runs another whole, first, on the model it is given meets that step's documented entries
(passcheck/hunt/documented.py ``which``; ``PassAdapter.steps``, M362). ``quant_pre_process`` starts with
onnxruntime's symbolic shape inference (onnxruntime/quantization/shape_inference.py) unless
``skip_symbolic_shape``: a crash of that step is the symbolic pass's documented defect, not a new one."""

from __future__ import annotations

import types

import onnx
from onnx import helper

from passcheck.hunt import documented
from passcheck.passes import get_pass
from passcheck.signature import Signature, crash_error


def _sparse_constant() -> onnx.ModelProto:
    """``y = Add(x, Constant(sparse_value))``: Constant-13 written with its typed attribute ``sparse_value``."""
    sparse = helper.make_sparse_tensor(
        helper.make_tensor("v", onnx.TensorProto.FLOAT, [2], [1.0, 2.0]),
        helper.make_tensor("i", onnx.TensorProto.INT64, [2], [0, 3]),
        [4],
    )
    graph = helper.make_graph(
        [helper.make_node("Constant", [], ["c"], sparse_value=sparse), helper.make_node("Add", ["x", "c"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [4])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)


def _record(pass_id: str, tmp_path) -> tuple[str, dict] | None:
    """The hunt's key and store record of the real pass on the model, or None when it did not crash."""
    tmp_path.mkdir(exist_ok=True)
    out = get_pass(pass_id).run(_sparse_constant(), tmp_path)
    if out.status != "crashed":
        return None
    finding = types.SimpleNamespace(details={"status": "crashed", "error": out.error}, kind="rejected")
    sig = Signature(pass_id, "acceptance", "rejected", (), "sparse-constant", crash_error(finding))
    message = f"{pass_id} crashed on this form only (accepted: common): {out.error.splitlines()[0]}"
    return sig.key, {"signature": sig.to_json(), "message": message, "case": sig.case_id}


def test_a_crash_of_the_symbolic_step_is_the_symbolic_passes_documented_row(tmp_path):
    own = _record("ort:symbolic-shape-infer", tmp_path / "a")
    step = _record("ort-quant:pre-process", tmp_path / "b")
    assert own is not None and step is not None
    assert "'HasField'" in own[1]["message"] and "_infer_Constant" in own[0]  # row 1's crash
    assert own[0].split("|", 1)[1] == step[0].split("|", 1)[1]  # the same exception at the same site
    row = documented.which(*own)
    assert row is not None and (row["row"], row.get("section")) == ("1", "")
    assert documented.which(*step) is row


def test_the_variant_that_skips_the_step_does_not_meet_its_rows(tmp_path):
    assert get_pass("ort-quant:pre-process-no-symbolic").steps == ()
    assert _record("ort-quant:pre-process-no-symbolic", tmp_path) is None  # the step skipped: no such crash
    key, rec = _record("ort-quant:pre-process", tmp_path / "b")
    skipped = key.replace("ort-quant:pre-process|", "ort-quant:pre-process-no-symbolic|", 1)
    rec = {**rec, "signature": {**rec["signature"], "pass_id": "ort-quant:pre-process-no-symbolic"}}
    assert documented.which(skipped, rec) is None


def test_a_pass_no_registry_knows_has_no_steps():
    key = "no-such:pass|acceptance|rejected||sparse-constant|AttributeError"
    assert documented.which(key, {"signature": None}) is None
    assert documented._steps("no-such:pass") == ()
