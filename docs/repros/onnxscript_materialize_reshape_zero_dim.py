"""onnxscript 0.7.2 rewrite() (rule MaterializeReshapeShape, rewriter/rules/common/_materialize_reshape_shape.py)
replaces a computed Reshape shape by a constant read off the output's shape, the one symbolic dim written -1, with
allowzero = 1. When another output dim is 0 (IR.md allows zero-size dims), the constant holds both 0 and -1, which
Operators.md Reshape forbids with allowzero set ("the value of the dimension corresponding to -1 cannot be
determined uniquely"): the rewritten model does not run. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript.rewriter
from onnx import helper

graph = helper.make_graph(
    [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Reshape", ["x", "s"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 0])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["N", 0])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxscript.rewriter.rewrite(model)
print([(n.op_type, list(n.input)) for n in out.graph.node])
x = np.zeros((3, 0), np.float32)
run = lambda m: ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]  # noqa: E731
want = run(model)
try:
    got = run(out)
except Exception as exc:  # noqa: BLE001 - onnxruntime refuses the Reshape
    print("BUG:", " ".join(str(exc).split())[:200])
    sys.exit(1)
if got.shape != want.shape:
    print("BUG: shape", got.shape, "where", want.shape)
    sys.exit(1)
print("ok")
