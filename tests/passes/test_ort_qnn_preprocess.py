"""``ort-quant:qnn-preprocess*`` (:mod:`passcheck.passes.ort_qnn_preprocess`): onnxruntime's QNN pre-processing on
library cases, judged as any optimizing pass. Its Gelu fusion keeps the values; its LayerNorm fusion on a chain over
other axes than the last is a wrong result (docs/found.md row 1222: the real tool is the planted break here)."""

from __future__ import annotations

import passcheck
from passcheck.api import check_model
from passcheck.cases import load_builtin
from passcheck.passes import get_pass


def test_it_fuses_the_erf_gelu_and_keeps_the_values():
    model = load_builtin().get("fusion-gelu/gelu-erf-r3").build("common")
    report = check_model(model, ["ort-quant:qnn-preprocess"], name="nbits41/gelu")
    (cell,) = [c for c in report.cells if c.pass_id == "ort-quant:qnn-preprocess"]
    assert cell.status == "changed" and "com.microsoft::Gelu" in cell.ops_after, (cell.error, cell.ops_after)
    assert cell.findings == [], cell.findings
    assert get_pass("ort-quant:qnn-preprocess").folds_constants


def test_a_model_it_does_not_change_is_returned_as_given(tmp_path):
    """It writes no file and returns False when none of its steps changed the model (a lone named Relu)."""
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    assert get_pass("ort-quant:qnn-preprocess").apply(model, tmp_path) is model


def test_its_layernorm_fusion_over_axis_1_is_a_wrong_result():
    """``fusion-norm/norm-axis1-r3``: the chain normalizes over axis 1; the fusion writes LayerNormalization with
    the default ``axis=-1`` (row 1222). Planted break: the case's ReduceMean axes set to ``-1`` (then the fusion is
    right and there is no finding)."""
    report = passcheck.run(["fusion-norm/norm-axis1-r3"], ["ort-quant:qnn-preprocess"])
    kinds = {(f.oracle, f.kind) for c in report.cells for f in c.findings}
    assert ("numeric", "wrong-result") in kinds, kinds
