"""onnxruntime's QDQ Conv fusion and a bias dequantized with its own scale.

`y = DQ(Q(Conv(DQ(Q(x)), DQ(wq), DQ(bq, s_b))))`: the int32 bias `bq` is dequantized with a scale `s_b` of its own.
Operators.md DequantizeLinear gives the bias the value `bq * s_b`, whatever `s_b` is; only QLinearConv's `B` input
must be quantized with `x_scale * w_scale`, so a fusion that hands `bq` to QLinearConv must check that `s_b` is that
product (or requantize). Here `s_b` = 1.5e-06, not 0.02 * 0.01. No passcheck. Met by round 23b's after hunt
(signature 30, `vary:qdq-own-scale` on `pattern-ort-qdq/conv`) in onnx-1.21 (onnxruntime 1.25.1), absent in onnx-1.22.
Exits 1 while ORT_ENABLE_ALL computes otherwise than ORT_DISABLE_ALL for the own-scale bias (the control, a bias at
`x_scale * w_scale`, agreeing), 0 once both agree."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

print("onnxruntime", ort.__version__)
rng = np.random.default_rng(0)
SX, SW, SY = 0.02, 0.01, 0.05


def model(bias_scale):
    inits = [
        numpy_helper.from_array(np.array(SX, np.float32), "sx"),
        numpy_helper.from_array(np.array(128, np.uint8), "zx"),
        numpy_helper.from_array(np.array(SY, np.float32), "sy"),
        numpy_helper.from_array(np.array(128, np.uint8), "zy"),
        numpy_helper.from_array(np.array(SW, np.float32), "sw"),
        numpy_helper.from_array(np.array(0, np.int8), "zw"),
        numpy_helper.from_array(rng.integers(-64, 64, (3, 2, 3, 3)).astype(np.int8), "wq"),
        numpy_helper.from_array(np.array([-1048576, 20527, -280160], np.int32), "bq"),
        numpy_helper.from_array(np.array(bias_scale, np.float32), "sb"),
        numpy_helper.from_array(np.array(0, np.int32), "zb"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "sw", "zw"], ["wd"]),
        helper.make_node("DequantizeLinear", ["bq", "sb", "zb"], ["bd"]),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("QuantizeLinear", ["c", "sy", "zy"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "qdq_conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 6, 6])],
        inits,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def run(m, level):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


x = rng.uniform(-2, 2, (1, 2, 6, 6)).astype(np.float32)
errs = {}
for name, scale in (("own scale 1.5e-06", 1.5124206e-06), ("x_scale * w_scale", SX * SW)):
    m = model(scale)
    ref = run(m, ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    got = run(m, ort.GraphOptimizationLevel.ORT_ENABLE_ALL)
    errs[name] = float(np.abs(got - ref).max())
    print(f"bias at {name}: max abs difference ORT_ENABLE_ALL vs ORT_DISABLE_ALL = {errs[name]:.4g}")
step = SY * 1.01  # one output quantization step, the most a fused kernel's rounding may move a value
sys.exit(1 if errs["own scale 1.5e-06"] > step and errs["x_scale * w_scale"] <= step else 0)
