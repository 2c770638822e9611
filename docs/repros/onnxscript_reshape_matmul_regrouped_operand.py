"""onnxscript 0.7.2 rewrite() (rules two_reshapes_matmul_reshape_rule / one_reshape_matmul_reshape_rule,
rewriter/rules/common/_broadcast_to_matmul.py) replaces Reshape(MatMul(Reshape(a, sa), Reshape(b, sb)), sc) by
MatMul(a, b) when sc equals the shape MatMul(a, b) would give; its check never reads sa or sb. Reshape keeps the
elements in row-major order (Operators.md Reshape), so Reshape(b: [3, 4], [2, 3, 2]) is a batch of two 3 x 2
matrices cut from b's rows, not b: MatMul(a, that) reshaped to [2, 4] is another result than a @ b, and the rewrite
changes the values. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript.rewriter
from onnx import helper, numpy_helper


def i64(name, value):
    return numpy_helper.from_array(np.array(value, np.int64), name)


graph = helper.make_graph(
    [
        helper.make_node("Reshape", ["a", "sa"], ["ra"]),
        helper.make_node("Reshape", ["b", "sb"], ["rb"]),
        helper.make_node("MatMul", ["ra", "rb"], ["m"]),
        helper.make_node("Reshape", ["m", "sc"], ["y"]),
    ],
    "g",
    [
        helper.make_tensor_value_info("a", onnx.TensorProto.FLOAT, [2, 3]),
        helper.make_tensor_value_info("b", onnx.TensorProto.FLOAT, [3, 4]),
    ],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 4])],
    [i64("sa", [2, 3]), i64("sb", [2, 3, 2]), i64("sc", [2, 4])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxscript.rewriter.rewrite(model)
print([(n.op_type, list(n.input)) for n in out.graph.node])
feeds = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.arange(12, dtype=np.float32).reshape(3, 4)}
run = lambda m: ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]  # noqa: E731
want, got = run(model), run(out)
if not np.array_equal(want, got):
    print("BUG: y", got.ravel().tolist(), "where", want.ravel().tolist())
    sys.exit(1)
print("ok")
