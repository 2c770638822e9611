"""``passcheck.runtime.kernels``: a kernel's version range holds every schema version inside it, its ends
included (onnxruntime's registry, ``version_range`` inclusive), and :func:`bound_types` binds each type
variable from the first value present at a formal of that type. Each answer is checked against a real
InferenceSession of a one-node model where one is at stake."""

from __future__ import annotations

import onnx
import onnx.defs
import pytest
from onnx import helper

from passcheck.runtime.kernels import bound_types, has_cpu_kernel, versions
from tests.runtime.test_kernels import _loads

pytest.importorskip("onnxruntime")

F, D, I64 = onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.INT64


def _model(node: onnx.NodeProto, opset: int, inputs: list, outputs: list) -> onnx.ModelProto:
    graph = helper.make_graph([node], "g", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def test_a_schema_version_strictly_inside_a_kernels_range_has_that_kernel():
    # Cast-9's schema is served by the CPU kernel registered for versions 6 to 12
    assert onnx.defs.get_schema("Cast", 9, "").since_version == 9 and (6, 12) in versions("", "Cast")
    assert has_cpu_kernel("", "Cast", 9, {"T1": "tensor(float)", "T2": "tensor(double)"}) is True
    node = helper.make_node("Cast", ["x"], ["y"], to=D)
    x, y = helper.make_tensor_value_info("x", F, [2]), helper.make_tensor_value_info("y", D, [2])
    assert _loads(_model(node, 9, [x], [y]))


def test_a_schema_version_at_the_last_version_of_a_kernels_range_has_that_kernel():
    # ArgMax-12 is served by the kernel registered for versions 11 to 12, none other
    assert onnx.defs.get_schema("ArgMax", 12, "").since_version == 12
    assert {r for r in versions("", "ArgMax") if r[0] <= 12 <= r[1]} == {(11, 12)}
    assert has_cpu_kernel("", "ArgMax", 12, {"T": "tensor(float)"}) is True
    node = helper.make_node("ArgMax", ["x"], ["y"], axis=0)
    x, y = helper.make_tensor_value_info("x", F, [2, 3]), helper.make_tensor_value_info("y", I64, [1, 3])
    assert _loads(_model(node, 12, [x], [y]))


def test_each_type_variable_is_bound_from_its_own_formal_and_a_variadic_formal_repeats():
    gather = helper.make_node("Gather", ["x", "i"], ["y"])
    schema = onnx.defs.get_schema("Gather", 13, "")
    elem = {"x": F, "i": I64, "y": F}
    assert bound_types(gather, schema, elem.get) == {"T": "tensor(float)", "Tind": "tensor(int64)"}
    concat = helper.make_node("Concat", ["a", "b", "c"], ["y"], axis=0)
    assert bound_types(concat, onnx.defs.get_schema("Concat", 13, ""), lambda _: D) == {"T": "tensor(double)"}


def test_an_absent_optional_input_binds_no_type():
    # Resize-13: X (T1), roi (T2, optional), scales, sizes; roi left out by its empty name
    resize = helper.make_node("Resize", ["x", "", "s"], ["y"])
    got = bound_types(resize, onnx.defs.get_schema("Resize", 13, ""), lambda _: F)
    assert got == {"T1": "tensor(float)"}
