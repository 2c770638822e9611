"""onnxruntime's graph optimizer at ORT_ENABLE_BASIC (WeightBiasQuantization,
`core/optimizer/qdq_transformer/weight_bias_quantization.cc`) on a QDQ Conv whose bias is a float initializer:
`xd = DequantizeLinear(xq, 0.02, 128)`, `wd = DequantizeLinear(wq, 1e-9, 0)`, `c = Conv(xd, wd, b)`, `b = [1.0]`,
`y = DequantizeLinear(QuantizeLinear(c, 0.05, 0))`, opset 21. The transformer quantizes the bias to int32 with the
scale `0.02 * 1e-9`: `1.0 / 2e-11 = 5e10` does not fit int32 and saturates, so the bias the Conv reads becomes
`2147483647 * 2e-11 = 0.043` instead of 1.0 (Operators.md §DequantizeLinear: any float scale is a scale; the model's
own Conv adds 1.0). ORT_DISABLE_ALL gives 1.0 everywhere. Exit 1 while the optimized session's output differs."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

nodes = [
    helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
    helper.make_node("DequantizeLinear", ["wq", "sw", "zw"], ["wd"]),
    helper.make_node("Conv", ["xd", "wd", "b"], ["c"]),
    helper.make_node("QuantizeLinear", ["c", "sy", "zy"], ["yq"]),
    helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"]),
]
inits = [
    numpy_helper.from_array(np.array(0.02, np.float32), "sx"),
    numpy_helper.from_array(np.array(128, np.uint8), "zx"),
    numpy_helper.from_array(np.full([1, 1, 1, 1], 10, np.int8), "wq"),
    numpy_helper.from_array(np.array(1e-9, np.float32), "sw"),
    numpy_helper.from_array(np.array(0, np.int8), "zw"),
    numpy_helper.from_array(np.array([1.0], np.float32), "b"),
    numpy_helper.from_array(np.array(0.05, np.float32), "sy"),
    numpy_helper.from_array(np.array(0, np.uint8), "zy"),
]
g = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("xq", TensorProto.UINT8, [1, 1, 2, 2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 2, 2])],
    inits,
)
model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
onnx.checker.check_model(model, full_check=True)

x = np.full([1, 1, 2, 2], 200, np.uint8)
out = {}
for name, level in (
    ("disabled", ort.GraphOptimizationLevel.ORT_DISABLE_ALL),
    ("basic", ort.GraphOptimizationLevel.ORT_ENABLE_BASIC),
):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    out[name] = sess.run(None, {"xq": x})[0].ravel().tolist()
print(ort.__version__, out)
if out["basic"] != out["disabled"]:
    print("BUG: the bias quantized to int32 saturates; the optimized Conv loses its bias")
    sys.exit(1)
print("ok")
