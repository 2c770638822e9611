"""onnx's version converter (Softmax 12 -> 13, adapters/softmax_12_13.h) names its intermediate without asking.

y = Softmax-12(x, axis=1), x: float[2, 3, 4] (not the last axis, so the adapter writes Flatten -> Softmax ->
Reshape), and another node's output named `y_intermediate` (IR.md §Names Within a Graph: any unique string is a
value name), opset 12, IR 7. convert_version(m, 13) renames the Softmax's output to `y_intermediate` with
`setUniqueName(name + "_intermediate")`, a name the graph already has: two nodes then write it, and the checker
refuses the output ("Graph must be in single static assignment (SSA) form"). The converter's own fresh names
(`getNextUnique`) skip names in use; this suffix does not. ExtendSupportedTypes' `name + "_intermediate_output"`
is written the same way (not reproduced here).
Exits 1 while the bug is there, 0 once the converted model is valid."""

import sys

import onnx
import onnx.version_converter
from onnx import TensorProto, helper

graph = helper.make_graph(
    [helper.make_node("Softmax", ["x"], ["y"], axis=1), helper.make_node("Neg", ["x"], ["y_intermediate"])],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4]),
     helper.make_tensor_value_info("y_intermediate", TensorProto.FLOAT, [2, 3, 4])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)], ir_version=7)
onnx.checker.check_model(model, full_check=True)
print("onnx", onnx.__version__)
converted = onnx.version_converter.convert_version(model, 13)
print("converted:", [(n.op_type, list(n.output)) for n in converted.graph.node])
try:
    onnx.checker.check_model(converted, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG: the converted model is invalid:", str(exc)[:160])
    sys.exit(1)
sys.exit(0)
