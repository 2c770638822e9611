"""onnxoptimizer 0.4.2 optimize() (pass fuse_add_bias_into_conv): a Conv's output plus a scalar bias becomes the
Conv's third input, broadcast to the output channels by `Tile(Unsqueeze(b), repeats)` with `repeats` written as a
new int64 Constant node. Constant-1 (the Constant of opsets 1-8, Operators.md) allows only float16, float and
double; int64 is allowed from Constant-9. At opset 7 or 8 the output is rejected by the checker ("(op_type:Constant):
output has unsupported type tensor(int64)"), while at opset 9 the same output passes. Exit 1 while the bug is
present."""

import sys

import numpy as np
import onnx
import onnxoptimizer
from onnx import TensorProto, helper, numpy_helper

graph = helper.make_graph(
    [
        helper.make_node("Conv", ["x", "w"], ["c"], kernel_shape=[3, 3]),
        helper.make_node("Add", ["c", "b"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5, 5])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 3, 3])],
    [
        numpy_helper.from_array(np.ones((4, 2, 3, 3), np.float32), "w"),
        numpy_helper.from_array(np.array(0.5, np.float32), "b"),  # a scalar bias, broadcast over the channels
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 8)], ir_version=4)
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxoptimizer.optimize(model)
print([n.op_type for n in out.graph.node])
try:
    onnx.checker.check_model(out, full_check=True)
except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as exc:
    print("BUG:", str(exc).strip().splitlines()[0])
    sys.exit(1)
print("ok")
