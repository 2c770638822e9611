"""onnxscript.optimizer.optimize merges two identical DequantizeLinear(w, s, zp) nodes (and the MatMuls
after them), but not DequantizeLinear(w, s) and DequantizeLinear(w, s, zp) with zp an int8 0, which
Operators.md DequantizeLinear says is what the omitted zero point means. Same outputs; a missed CSE."""

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript
from onnx import TensorProto, helper, numpy_helper


def model(omit_one: bool) -> onnx.ModelProto:
    nodes = [
        helper.make_node("DequantizeLinear", ["wq", "s"] if omit_one else ["wq", "s", "z"], ["w1"]),
        helper.make_node("DequantizeLinear", ["wq", "s", "z"], ["w2"]),
        helper.make_node("MatMul", ["x", "w1"], ["m1"]),
        helper.make_node("MatMul", ["x", "w2"], ["m2"]),
        helper.make_node("Add", ["m1", "m2"], ["y"]),
    ]
    rng = np.random.default_rng(0)
    inits = [
        numpy_helper.from_array(rng.integers(-100, 100, (8, 4)).astype(np.int8), "wq"),
        numpy_helper.from_array(np.float32(0.02), "s"),
        numpy_helper.from_array(np.int8(0), "z"),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
        inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


so = ort.SessionOptions()
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # compare the models, not ORT's fusions
x = np.random.default_rng(1).standard_normal((2, 8)).astype(np.float32)
import sys

counts = []
for omit in (False, True):
    m = model(omit)
    onnx.checker.check_model(m, full_check=True)
    opt = onnxscript.optimizer.optimize(m)
    y0 = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    y1 = ort.InferenceSession(opt.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    counts.append(sum(n.op_type == "DequantizeLinear" for n in opt.graph.node))
    print(
        f"one zero point {'omitted' if omit else 'written'}: ops after optimize {[n.op_type for n in opt.graph.node]}"
        f"; outputs equal: {np.allclose(y0, y1)}"
    )
print("onnxscript", onnxscript.__version__)
sys.exit(1 if counts[1] > counts[0] else 0)  # omitted: more DequantizeLinear left than written
