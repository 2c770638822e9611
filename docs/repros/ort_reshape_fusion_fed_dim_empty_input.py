"""onnxruntime 1.32.0 ReshapeFusion (`ORT_ENABLE_BASIC` and above, core/optimizer/reshape_fusion.cc): in
`Reshape(x, Concat(v, Unsqueeze(Gather(Shape(x), 1)), [3, 2]))` with `v` a fed int64[1], the fusion writes the
shape as the constant `[-1, 0, 3, 2]`: the fed element becomes -1 and the Gather of x's own dim 1 becomes 0 (copy).
Reshape (Operators.md, Reshape-21/23) infers a -1 "from the size of the tensor and the remaining dimensions", which
it cannot do when a remaining dimension is 0. With x of shape [2, 0, 6] (IR.md allows a 0 dim) and v = [7], the
model computes Reshape(x, [7, 0, 3, 2]) = an empty [7, 0, 3, 2] (`ORT_DISABLE_ALL`, onnx.reference); the fused
model fails ("The input tensor cannot be reshaped to the requested shape"). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

nodes = [
    helper.make_node("Shape", ["x"], ["s"]),
    helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
    helper.make_node("Unsqueeze", ["d1", "ax0"], ["u1"]),
    helper.make_node("Concat", ["v", "u1", "tail"], ["shape"], axis=0),
    helper.make_node("Reshape", ["x", "shape"], ["y"]),
]
inits = [
    numpy_helper.from_array(np.array(1, np.int64), "i1"),
    numpy_helper.from_array(np.array([0], np.int64), "ax0"),
    numpy_helper.from_array(np.array([3, 2], np.int64), "tail"),
]
graph = helper.make_graph(
    nodes,
    "g",
    [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "T", 6]),
        helper.make_tensor_value_info("v", TensorProto.INT64, [1]),
    ],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None, None, None])],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.zeros((2, 0, 6), np.float32), "v": np.array([7], np.int64)}


def run(level):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


want = run(ort.GraphOptimizationLevel.ORT_DISABLE_ALL).shape  # (7, 0, 3, 2)
print("disabled:", want)
try:
    got = run(ort.GraphOptimizationLevel.ORT_ENABLE_BASIC).shape
except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own Fail / RuntimeException types
    print("BUG: basic fails on a feed the model accepts:", str(exc).strip().splitlines()[-1][-120:])
    sys.exit(1)
print("basic:", got)
if got != want:
    print("BUG: shapes differ")
    sys.exit(1)
print("ok")
