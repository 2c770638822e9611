"""onnxruntime 1.32.0 at ORT_ENABLE_BASIC drops a dim of a valid model's output:
y = Mul(Div(one, x), z), one a float 1 of shape [1, 1, 1], x and z: float[2, 3]. Div broadcasts
multidirectionally (Operators.md Div-14, Broadcasting.md), so Div(one, x) and y are [1, 2, 3]. DivMulFusion
rewrites 1 / x * z as z / x and checks that the numerator holds the value 1, not that its shape leaves the
output's rank alone: the fused Div gives [2, 3] where the model declares [1, 2, 3]. The same in 1.18.1, 1.20.1,
1.22.1, 1.23.2, 1.25.1 and 1.28.0 (passcheck's pinned environments). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

graph = helper.make_graph(
    [helper.make_node("Div", ["one", "x"], ["d"]), helper.make_node("Mul", ["d", "z"], ["y"])],
    "g",
    [
        helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3]),
        helper.make_tensor_value_info("z", onnx.TensorProto.FLOAT, [2, 3]),
    ],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 2, 3])],
    [numpy_helper.from_array(np.ones((1, 1, 1), np.float32), "one")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
rng = np.random.default_rng(0)
feed = {"x": rng.uniform(1, 2, (2, 3)).astype(np.float32), "z": rng.standard_normal((2, 3)).astype(np.float32)}
out = {}
for level, disabled in (("ORT_DISABLE_ALL", []), ("ORT_ENABLE_BASIC", []), ("ORT_ENABLE_BASIC", ["DivMulFusion"])):
    so = ort.SessionOptions()
    so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    so.log_severity_level = 3
    sess = ort.InferenceSession(model.SerializeToString(), so, ["CPUExecutionProvider"], disabled_optimizers=disabled)
    out[(level, tuple(disabled))] = sess.run(None, feed)[0]
    print(level, "disabled:", disabled, "shape", out[(level, tuple(disabled))].shape)
bug = out[("ORT_DISABLE_ALL", ())].shape != out[("ORT_ENABLE_BASIC", ())].shape
sys.exit(1 if bug else 0)
