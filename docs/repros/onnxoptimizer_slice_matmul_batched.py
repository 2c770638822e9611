"""onnxoptimizer's adjust_slice_and_matmul moves a Slice of a constant past a MatMul whose other operand has more
dims: the Slice's axes keep their numbers, so on the product they name another axis.

MatMul(Slice(W, [0], [2], axes=[0]), V), W: float[4, 3], V: float[1, 3, 5] (MatMul broadcasts like numpy:
Operators.md MatMul) is a [1, 2, 5] tensor: the first two rows of W times V. The pass (onnxoptimizer 0.4.2,
passes/adjust_slice_and_matmul.h) rewrites it as Slice(MatMul(W, V), [0], [2], axes=[0]): the product is
[1, 4, 5] and axis 0 is now its batch dim, so the slice keeps all four rows ([1, 4, 5]).

Needs onnx, onnxruntime, numpy, onnxoptimizer. Exits 1 while the optimized model computes another result.
"""

import sys

import numpy as np
import onnx
import onnxoptimizer
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

W = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
V = np.linspace(0.5, -0.5, 15, dtype=np.float32).reshape(1, 3, 5)
graph = helper.make_graph(
    [
        helper.make_node("Slice", ["W", "starts", "ends", "axes"], ["s"]),
        helper.make_node("MatMul", ["s", "V"], ["m"]),
        helper.make_node("Add", ["m", "x"], ["y"]),
    ],
    "slice_matmul",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 5])],
    [
        numpy_helper.from_array(W, "W"),
        numpy_helper.from_array(V, "V"),
        numpy_helper.from_array(np.array([0], np.int64), "starts"),
        numpy_helper.from_array(np.array([2], np.int64), "ends"),
        numpy_helper.from_array(np.array([0], np.int64), "axes"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(model, full_check=True)
x = {"x": np.zeros((1, 2, 5), np.float32)}


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0]


expected = run(model)
assert np.allclose(expected, W[:2] @ V), "the unoptimized model is the spec's product"
optimized = onnxoptimizer.optimize(model, ["adjust_slice_and_matmul"])
print("nodes after the pass:", [n.op_type for n in optimized.graph.node])
try:
    got = run(optimized)
except Exception as exc:  # noqa: BLE001 - the optimized model does not run: the bug
    print(f"BUG: the optimized model does not run: {str(exc).splitlines()[0]}")
    sys.exit(1)
if got.shape != expected.shape or not np.allclose(got, expected, atol=1e-6):
    print(f"BUG: optimized {got.shape} differs from {expected.shape}")
    sys.exit(1)
print("ok: the optimized model computes the same result")
