"""onnxruntime 1.32.0 at ORT_ENABLE_EXTENDED refuses a valid model: y = Transpose(DequantizeLinear(x, s, z)) with
x and z int32 (DequantizeLinear-21+ takes int32; QuantizeLinear never produces it). Its QDQ propagation writes a
QuantizeLinear with the int32 zero point after the Transpose ("y_transpose_q"), which the type check rejects.
Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

graph = helper.make_graph(
    [
        helper.make_node("DequantizeLinear", ["x", "s", "z"], ["d"]),
        helper.make_node("Transpose", ["d"], ["y"], perm=[1, 0]),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.INT32, [2, 3])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3, 2])],
    [numpy_helper.from_array(np.array(0.5, np.float32), "s"), numpy_helper.from_array(np.array(0, np.int32), "z")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
onnx.checker.check_model(model, full_check=True)
feed = {"x": np.arange(6, dtype=np.int32).reshape(2, 3)}
results = {}
for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_EXTENDED"):
    so = ort.SessionOptions()
    so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    try:
        results[level] = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(
            None, feed
        )[0]
        print(level, "ok", results[level].ravel().tolist())
    except Exception as exc:  # noqa: BLE001
        print(level, "BUG:", str(exc).splitlines()[0][:300])
        results[level] = None
sys.exit(1 if results["ORT_DISABLE_ALL"] is not None and results["ORT_ENABLE_EXTENDED"] is None else 0)
