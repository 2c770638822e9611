"""onnxoptimizer 0.4.2 optimize() (default pass fuse_consecutive_reshapes) replaces `Reshape(Reshape(x, s1), s2)` by
`Reshape(x, s2)` also when `s2` holds a 0. With `allowzero` 0 (the default) a 0 in the shape copies the dim of the
Reshape's own input at that position (Operators.md Reshape), which is `Reshape(x, s1)`'s, not x's: the fused
Reshape copies other dims. With x [4, 4], s1 [2, 8], s2 [0, -1] the input model gives y [2, 8] and the optimized
one [4, 4]; with x [2, 8], s1 [4, 2, 2], s2 [0, 0, 0] the output is invalid (the checker: "Invalid position of
0"). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnxoptimizer
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(x_shape, s1, s2):
    inits = [numpy_helper.from_array(np.array(s, np.int64), n) for n, s in (("s1", s1), ("s2", s2))]
    nodes = [helper.make_node("Reshape", ["x", "s1"], ["a"]), helper.make_node("Reshape", ["a", "s2"], ["y"])]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    return helper.make_model(
        helper.make_graph(nodes, "g", [x], [y], inits), opset_imports=[helper.make_opsetid("", 14)]
    )


def run(m, x):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


m = model([4, 4], [2, 8], [0, -1])
x = np.arange(16, dtype=np.float32).reshape(4, 4)
want, got = run(m, x), run(onnxoptimizer.optimize(m), x)
print("input model:", want.shape, "optimized:", got.shape)
if got.shape != want.shape:
    print("BUG: the fused Reshape copies x's dims where the second Reshape copied the first's output's")
    sys.exit(1)
print("ok")
