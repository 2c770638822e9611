"""onnxruntime ClipQuantFusion / ReluQuantFusion (ORT_ENABLE_EXTENDED) keep a Clip(0, 6) / Relu before a
QuantizeLinear whose zero point is omitted (Operators.md QuantizeLinear: omitted y_zero_point = uint8 0),
and remove it when the same uint8 zero point 0 is written out. Same outputs; a missed optimization."""

import os
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(explicit_zp: bool, act: str) -> onnx.ModelProto:
    zp = ["z"] if explicit_zp else []
    nodes = [
        helper.make_node("Clip", ["x"], ["r"], min=0.0, max=6.0)
        if act == "Clip"
        else helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "s", *zp], ["q"]),
        helper.make_node("DequantizeLinear", ["q", "s", *zp], ["y"]),
    ]
    inits = [numpy_helper.from_array(np.float32(6 / 255), "s"), numpy_helper.from_array(np.uint8(0), "z")]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])],
        inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 10)], ir_version=7)


x = np.linspace(-3, 9, 16, dtype=np.float32).reshape(2, 8)
kept = {}
for act, explicit in [(a, e) for a in ("Clip", "Relu") for e in (True, False)]:
    m = model(explicit, act)
    onnx.checker.check_model(m, full_check=True)
    out = os.path.join(tempfile.mkdtemp(), "opt.onnx")
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = out
    y = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    ops = [n.op_type for n in onnx.load(out).graph.node]
    kept[act, explicit] = act in ops
    print(
        f"{act}: zero point {'explicit' if explicit else 'omitted '}: ops after ORT_ENABLE_EXTENDED {ops}; y[0,:3]={y[0, :3]}"
    )
print("onnxruntime", ort.__version__)
import sys

sys.exit(1 if any(kept[a, False] and not kept[a, True] for a in ("Clip", "Relu")) else 0)
