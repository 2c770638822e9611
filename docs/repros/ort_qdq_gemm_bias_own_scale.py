"""onnxruntime's QDQ Gemm -> QGemm fusion reads an int32 bias as if its scale were a_scale * b_scale
(docs/found.md row 600). Exits 1 when ORT_ENABLE_EXTENDED differs from ORT_DISABLE_ALL."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper
from onnx import numpy_helper as nh

rng = np.random.default_rng(0)
c = rng.uniform(-2, 2, 5)
inits = [
    nh.from_array(np.array(1 / 32, np.float32), "sa"),
    nh.from_array(np.array(128, np.uint8), "za"),
    nh.from_array(rng.integers(-127, 128, (4, 5)).astype(np.int8), "bq"),
    nh.from_array(np.array(0.01, np.float32), "sb"),
    nh.from_array(np.array(0, np.int8), "zb"),
    # the bias with a scale of its own (DequantizeLinear allows any scale), not 1/32 * 0.01
    nh.from_array(np.round(c * 2**20 / np.abs(c).max()).astype(np.int32), "cq"),
    nh.from_array(np.array(np.abs(c).max() / 2**20, np.float32), "sc"),
    nh.from_array(np.array(0, np.int32), "zc"),
    nh.from_array(np.array(1 / 16, np.float32), "sy"),
    nh.from_array(np.array(128, np.uint8), "zy"),
]
nodes = [
    helper.make_node("QuantizeLinear", ["a", "sa", "za"], ["aq"]),
    helper.make_node("DequantizeLinear", ["aq", "sa", "za"], ["ad"]),
    helper.make_node("DequantizeLinear", ["bq", "sb", "zb"], ["bd"]),
    helper.make_node("DequantizeLinear", ["cq", "sc", "zc"], ["cd"]),
    helper.make_node("Gemm", ["ad", "bd", "cd"], ["g"]),
    helper.make_node("QuantizeLinear", ["g", "sy", "zy"], ["gq"]),
    helper.make_node("DequantizeLinear", ["gq", "sy", "zy"], ["y"]),
]
graph = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("a", T.FLOAT, [3, 4])],
    [helper.make_tensor_value_info("y", T.FLOAT, [3, 5])],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
a = rng.uniform(-2, 2, (3, 4)).astype(np.float32)
out = {}
with tempfile.TemporaryDirectory() as tmp:
    for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_EXTENDED"):
        so = ort.SessionOptions()
        so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
        so.optimized_model_filepath = os.path.join(tmp, f"qgemm_{level}.onnx")
        sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        out[level] = sess.run(None, {"a": a})[0]
    ops = [n.op_type for n in onnx.load(os.path.join(tmp, "qgemm_ORT_ENABLE_EXTENDED.onnx")).graph.node]
err = float(np.abs(out["ORT_ENABLE_EXTENDED"] - out["ORT_DISABLE_ALL"]).max())
print("onnxruntime", ort.__version__, "optimized ops", ops, "max |extended - disabled|", err)
sys.exit(1 if err > 1 / 16 else 0)
