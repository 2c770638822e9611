"""onnxruntime 1.32.0 (CPU) ReshapeFusion (ORT_ENABLE_BASIC and above) turns
`Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0), axes), Unsqueeze(Gather(Shape(x), 1), axes), [2, 4]))` into one
Reshape with a constant shape when `axes` is [0], but leaves all seven nodes when `axes` is [-1]. Unsqueeze of a
scalar has an output of rank 1, and Operators.md Unsqueeze accepts axes in [-r, r-1] with r the output rank: [-1]
and [0] are the same axis, so the two models are one computation spelled two ways. Exit 1 while the bug is
present."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(axis):
    values = {"k0": np.array(0), "k1": np.array(1), "axes": np.array([axis]), "k": np.array([2, 4])}
    inits = [numpy_helper.from_array(v.astype(np.int64), n) for n, v in values.items()]
    n = helper.make_node
    nodes = [
        n("Shape", ["x"], ["sh"]),
        n("Gather", ["sh", "k0"], ["d0"]),
        n("Gather", ["sh", "k1"], ["d1"]),
        n("Unsqueeze", ["d0", "axes"], ["u0"]),
        n("Unsqueeze", ["d1", "axes"], ["u1"]),
        n("Concat", ["u0", "u1", "k"], ["c"], axis=0),
        n("Reshape", ["x", "c"], ["r"]),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4, 8])
    r = helper.make_tensor_value_info("r", TensorProto.FLOAT, ["N", 4, 2, 4])
    return helper.make_model(
        helper.make_graph(nodes, "g", [x], [r], inits), opset_imports=[helper.make_opsetid("", 13)]
    )


def optimized(m):
    path = os.path.join(tempfile.mkdtemp(), "opt.onnx")
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.optimized_model_filepath = path
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(0).standard_normal((3, 4, 8)).astype(np.float32)
    return [node.op_type for node in onnx.load(path).graph.node], sess.run(None, {"x": x})[0]


ops0, y0 = optimized(model(0))
ops1, y1 = optimized(model(-1))
np.testing.assert_array_equal(y0, y1)  # the same computation
print("axes [0]:", ops0)
print("axes [-1]:", ops1)
if len(ops1) > len(ops0):
    print("BUG: ReshapeFusion declines the axes [-1] spelling")
    sys.exit(1)
print("ok")
