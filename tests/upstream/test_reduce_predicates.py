"""The reducer's predicates refuse a cut the engine cannot judge (passcheck/reduce/predicates.py), where
mutation showed no test ran the line (bench/results/mutation.jsonl)."""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from passcheck.passes import run_in_process
from passcheck.records import Finding
from passcheck.reduce.predicates import EngineCheck


def _relu(name: str) -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Relu", [name], ["y"])],
        "g",
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_a_cut_whose_forms_no_longer_share_an_interface_does_not_hold():
    # the engine refuses forms with different input names (a PasscheckError): not a candidate, no crash
    f = Finding(
        "less-precise", "shape", "c", "common", "onnx:infer-shapes", "y typed less precisely", {"other_form": "u"}
    )
    assert EngineCheck(f, run_in_process)(_relu("x"), _relu("x2")) is False


def _linear(fused: bool) -> onnx.ModelProto:
    """y = x @ w + b, as onnxruntime's basic level writes it (one Gemm) or as it fuses it (MatMul, Add)."""
    w = helper.make_tensor("w", TensorProto.FLOAT, [3, 4], [0.5] * 12)
    b = helper.make_tensor("b", TensorProto.FLOAT, [4], [1.0, 2.0, 3.0, 4.0])
    if fused:
        nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["y"])]
    else:
        nodes = [helper.make_node("MatMul", ["x", "w"], ["t"]), helper.make_node("Add", ["t", "b"], ["y"])]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
        initializer=[w, b],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_an_ort_parity_pair_naming_no_kept_op_holds_when_the_level_writes_new_op_types_in_one_form_only():
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.reduce.predicates import OrtParity

    matmul_add, gemm = _linear(False), _linear(True)
    with IsolatedExecutor() as ex:
        holds = OrtParity("basic", [], ex)  # MatMulAddFusion writes a Gemm in the first form, nothing new in the other
        assert holds(matmul_add, gemm) and holds(gemm, matmul_add)
        assert not holds(matmul_add, matmul_add) and not holds(gemm, gemm)
