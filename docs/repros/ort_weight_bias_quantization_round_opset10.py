"""onnxruntime's WeightBiasQuantization (core/optimizer/qdq_transformer/weight_bias_quantization.cc, Level 1) on a
QDQ Gemm with a float bias, `xd = DequantizeLinear(xq, 0.05, 128)`, `c = Gemm(xd, w, b)`, `y = DequantizeLinear(
QuantizeLinear(c, 0.1, 128), 0.1, 128)`, `x: float[2, 4]`, `w: float[4, 3]`, `b: float[3]`, at opset 10 (QuantizeLinear-10
and DequantizeLinear-10 are the first versions; Gemm-9). The transformer quantizes the bias by inserting
Mul, Div, Round, Cast and DequantizeLinear nodes; Round exists from opset 11 (Operators.md Round-11), so at opset 10
the rewritten graph is invalid and session creation fails at ORT_ENABLE_BASIC ("No Op registered for Round with
domain_version of 10"), while ORT_DISABLE_ALL runs the model. Exit 1 while ORT_ENABLE_BASIC refuses the model."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
inits = [
    numpy_helper.from_array(np.float32(0.05), "xs"),
    numpy_helper.from_array(np.uint8(128), "xz"),
    numpy_helper.from_array(rng.uniform(-1, 1, (4, 3)).astype(np.float32), "w"),
    numpy_helper.from_array(np.array([0.5, -0.25, 1.0], np.float32), "b"),
    numpy_helper.from_array(np.float32(0.1), "ys"),
    numpy_helper.from_array(np.uint8(128), "yz"),
]
nodes = [
    helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
    helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
    helper.make_node("Gemm", ["xd", "w", "b"], ["c"]),
    helper.make_node("QuantizeLinear", ["c", "ys", "yz"], ["cq"]),
    helper.make_node("DequantizeLinear", ["cq", "ys", "yz"], ["y"]),
]
g = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    inits,
)
model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 10)], ir_version=7)
onnx.checker.check_model(model, full_check=True)
x = rng.uniform(-2, 2, (2, 4)).astype(np.float32)


def run(level):
    opts = ort.SessionOptions()
    opts.graph_optimization_level = level
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"]).run(None, {"x": x})


levels = ort.GraphOptimizationLevel
print(ort.__version__, "disabled:", run(levels.ORT_DISABLE_ALL)[0].ravel().tolist())
try:
    print("basic:", run(levels.ORT_ENABLE_BASIC)[0].ravel().tolist())
except Exception as e:  # noqa: BLE001 - the refusal is the bug
    print("BUG: ORT_ENABLE_BASIC refuses the valid opset-10 model:", str(e)[:300])
    sys.exit(1)
print("ok")
