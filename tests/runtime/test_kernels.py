"""``passcheck.runtime.kernels`` against the installed onnxruntime: each answer is checked against a
real InferenceSession of a one-node model (it loads exactly when the CPU provider runs the node), or
against the onnx schema that decides it (a function body, a context-dependent function, no schema)."""

from __future__ import annotations

import onnx
import onnx.defs
import pytest
from onnx import helper

from passcheck.runtime.kernels import has_cpu_kernel, node_runs_on_cpu

pytest.importorskip("onnxruntime")


def _one_node(op: str, opset: int, elem: int) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", elem, [2])
    y = helper.make_tensor_value_info("y", elem, [2])
    graph = helper.make_graph([helper.make_node(op, ["x"], ["y"])], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def _loads(model: onnx.ModelProto) -> bool:
    import onnxruntime as ort

    try:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception:  # noqa: BLE001 - NOT_IMPLEMENTED: no kernel for the node
        return False
    return True


def _runs_on_cpu(op: str, opset: int, elem: int) -> bool | None:
    model = _one_node(op, opset, elem)
    schema = onnx.defs.get_schema(op, opset, "")
    return node_runs_on_cpu(model.graph.node[0], schema, lambda _: elem)


F, D, F16, I16 = onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16, onnx.TensorProto.INT16


def test_a_kernel_for_the_version_but_not_the_type_is_no_kernel():
    # Relu-14's CPU kernels: float, double, int8, int32
    assert has_cpu_kernel("", "Relu", 14, {"T": "tensor(float)"}) is True and _loads(_one_node("Relu", 14, F))
    assert has_cpu_kernel("", "Relu", 14, {"T": "tensor(int16)"}) is False
    assert not _loads(_one_node("Relu", 14, I16))


def test_an_op_without_a_kernel_runs_when_its_function_body_does():
    # HardSwish-14 has no CPU kernel; onnxruntime expands its body (HardSigmoid, Mul): float only
    assert has_cpu_kernel("", "HardSwish", 14, {"T": "tensor(float)"}) is True
    assert _loads(_one_node("HardSwish", 14, F))
    assert has_cpu_kernel("", "HardSwish", 14, {"T": "tensor(double)"}) is False
    assert not _loads(_one_node("HardSwish", 14, D))


def test_a_function_body_cannot_be_judged_without_exactly_one_bound_type():
    assert has_cpu_kernel("", "HardSwish", 14) is None
    assert has_cpu_kernel("", "HardSwish", 14, {"T": "tensor(float)", "U": "tensor(double)"}) is None


def test_a_context_dependent_function_is_unknown_and_an_op_with_neither_kernel_nor_function_is_false():
    assert onnx.defs.get_schema("CastLike", 15).has_context_dependent_function
    assert has_cpu_kernel("", "CastLike", 15, {"T1": "tensor(float)", "T2": "tensor(double)"}) is None
    schema = onnx.defs.get_schema("Or", 1)
    assert not schema.has_function and not schema.has_context_dependent_function
    assert has_cpu_kernel("", "Or", 1) is False
    assert has_cpu_kernel("", "NoSuchOp", 1) is False


def test_a_float16_node_runs_through_the_float_kernel_when_it_has_no_float16_one():
    # Sin-7: float and double kernels; onnxruntime's InsertCastTransformer casts float16 around it
    assert has_cpu_kernel("", "Sin", 7, {"T": "tensor(float16)"}) is False
    assert _runs_on_cpu("Sin", 13, F16) is True and _loads(_one_node("Sin", 13, F16))
    assert _runs_on_cpu("Relu", 14, I16) is False


def test_constant_runs_without_a_kernel_as_an_initializer():
    assert has_cpu_kernel("", "Constant", 13) is True and has_cpu_kernel("ai.onnx", "Constant", 21) is True
    y = helper.make_tensor_value_info("y", F, [2])
    value = helper.make_tensor("v", F, [2], [1.0, 2.0])
    graph = helper.make_graph([helper.make_node("Constant", [], ["y"], value=value)], "g", [], [y])
    assert _loads(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8))
