"""Conv + LeakyRelu(alpha=0.01) is fused into com.microsoft.FusedConv by onnxruntime's
ConvActivationFusion (ORT_ENABLE_EXTENDED); the same computation with PRelu(slope = scalar 0.01) is not."""

import os
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as TP
from onnx import helper as h
from onnx import numpy_helper as nh


def model(act):
    w = nh.from_array(np.random.default_rng(0).standard_normal((3, 2, 3, 3)).astype(np.float32), "w")
    s = nh.from_array(np.array(0.01, np.float32), "s")
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"]),
        h.make_node("LeakyRelu", ["c"], ["y"], alpha=0.01)
        if act == "LeakyRelu"
        else h.make_node("PRelu", ["c", "s"], ["y"]),
    ]
    g = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info("x", TP.FLOAT, [1, 2, 6, 6])],
        [h.make_tensor_value_info("y", TP.FLOAT, [1, 3, 4, 4])],
        [w, s] if act == "PRelu" else [w],
    )
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


x = np.random.default_rng(1).standard_normal((1, 2, 6, 6)).astype(np.float32)
outs, fused = [], {}
for act in ("LeakyRelu", "PRelu"):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = os.path.join(tempfile.mkdtemp(), "opt.onnx")
    sess = ort.InferenceSession(model(act).SerializeToString(), so, providers=["CPUExecutionProvider"])
    outs.append(sess.run(None, {"x": x})[0])
    fused[act] = "FusedConv" in [n.op_type for n in onnx.load(so.optimized_model_filepath).graph.node]
    print(ort.__version__, act, "->", [n.op_type for n in onnx.load(so.optimized_model_filepath).graph.node])
print("same outputs:", np.array_equal(outs[0], outs[1]))
import sys

sys.exit(1 if fused["LeakyRelu"] and not fused["PRelu"] and np.array_equal(outs[0], outs[1]) else 0)
