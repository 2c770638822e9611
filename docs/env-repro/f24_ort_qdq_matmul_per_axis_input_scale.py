"""onnxruntime's QDQ MatMul -> QLinearMatMul fusion (ORT_ENABLE_EXTENDED and up) when the activation's
DequantizeLinear is spelled per axis: `xd = DequantizeLinear(QuantizeLinear(x, sx, zx), sx8, zx8, axis=1)`, `sx8`
eight equal entries (Operators.md DequantizeLinear-13: per-axis dequantization; the same values as the per-tensor
spelling, which is fused and runs), read by two MatMuls whose outputs are quantized per tensor and added. Some
versions fuse both MatMuls and the QLinearMatMul kernel then refuses the run ("QLinearMatmul : input zero point
must be a scalar or 1D tensor of size 1"); later ones leave them unfused. No passcheck. Exits 1 while the optimized
session fails to run or computes otherwise than ORT_DISABLE_ALL, 0 when it agrees."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

rng = np.random.default_rng(0)
inits = [
    nh.from_array(np.array(0.02, np.float32), "sx"),
    nh.from_array(np.array(128, np.uint8), "zx"),
    nh.from_array(np.full(8, 0.02, np.float32), "sx8"),
    nh.from_array(np.full(8, 128, np.uint8), "zx8"),
    nh.from_array(rng.integers(-60, 60, (8, 4)).astype(np.int8), "mq"),
    nh.from_array(np.array(0.01, np.float32), "sw"),
    nh.from_array(np.array(0, np.int8), "zw"),
    nh.from_array(np.array(0.05, np.float32), "sy"),
    nh.from_array(np.array(128, np.uint8), "zy"),
]
nodes = [
    h.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
    h.make_node("DequantizeLinear", ["xq", "sx8", "zx8"], ["xd"], axis=1),
    h.make_node("DequantizeLinear", ["mq", "sw", "zw"], ["w1"]),
    h.make_node("DequantizeLinear", ["mq", "sw", "zw"], ["w2"]),
    h.make_node("MatMul", ["xd", "w1"], ["m1"]),
    h.make_node("MatMul", ["xd", "w2"], ["m2"]),
    h.make_node("QuantizeLinear", ["m1", "sy", "zy"], ["q1"]),
    h.make_node("QuantizeLinear", ["m2", "sy", "zy"], ["q2"]),
    h.make_node("DequantizeLinear", ["q1", "sy", "zy"], ["d1"]),
    h.make_node("DequantizeLinear", ["q2", "sy", "zy"], ["d2"]),
    h.make_node("Add", ["d1", "d2"], ["y"]),
]
g = h.make_graph(
    nodes,
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, [2, 8])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 4])],
    inits,
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
x = rng.standard_normal((2, 8)).astype(np.float32)


def run(level):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    s = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return s.run(None, {"x": x})[0]


print("onnxruntime", ort.__version__)
ref = run(ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
try:
    got = run(ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED)
except Exception as e:  # noqa: BLE001 - the failure is what is reported
    print("ORT_ENABLE_EXTENDED fails:", str(e).splitlines()[0][:300])
    sys.exit(1)
print("ORT_ENABLE_EXTENDED runs; max abs difference from ORT_DISABLE_ALL:", float(np.abs(got - ref).max()))
sys.exit(0 if np.allclose(got, ref, atol=0.11) else 1)
