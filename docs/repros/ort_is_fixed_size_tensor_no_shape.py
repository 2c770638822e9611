"""onnxruntime's ``onnx_model_utils.is_fixed_size_tensor`` calls a tensor with no shape (rank unknown) fixed-size.

x: float[N, 4], s: int64[K] (a graph input), r = Reshape(x, s), y = ReduceSum(r, keepdims=0): float[]. r's rank is
the run-time length of s: onnx's shape inference leaves r without a shape, and a value_info ``r: float tensor``
with no ``shape`` field is valid (TypeProto.Tensor.shape: "absent means any shape"; the checker accepts it). The
helper tests ``if shape:`` on the TensorShapeProto message (true whether the field is set or not) and then finds no
dim that is not fixed, so it answers True for r. make_dynamic_shape_fixed's ``fix_output_shapes`` skips outputs by
it, and the mobile usability checker (``mobile_helpers/usability_checker.py``) counts inputs, outputs and
value_info as fixed by it. Exits 1 while the helper calls an unshaped tensor fixed.
"""

import sys

import onnx
from onnx import TensorProto, helper
from onnxruntime.tools.onnx_model_utils import is_fixed_size_tensor

vi = helper.make_tensor_value_info
g = helper.make_graph(
    [helper.make_node("Reshape", ["x", "s"], ["r"]), helper.make_node("ReduceSum", ["r"], ["y"], keepdims=0)],
    "g",
    [vi("x", TensorProto.FLOAT, ["N", 4]), vi("s", TensorProto.INT64, ["K"])],
    [vi("y", TensorProto.FLOAT, [])],
    value_info=[vi("r", TensorProto.FLOAT, None)],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
inferred = {v.name: v for v in onnx.shape_inference.infer_shapes(m).graph.value_info}
r = inferred.get("r", m.graph.value_info[0])
print(f"r has a shape: {r.type.tensor_type.HasField('shape')}; is_fixed_size_tensor(r) = {is_fixed_size_tensor(r)}")
print(f"is_fixed_size_tensor(x: float[N, 4]) = {is_fixed_size_tensor(m.graph.input[0])}")
sys.exit(1 if is_fixed_size_tensor(r) else 0)
