"""onnxruntime 1.32.0's transformer optimizer (onnxruntime/transformers/fusion_simplified_layernorm.py,
FusionSimplifiedLayerNormalization, run by optimize_model for every model type) crashes on an RMS norm whose square
is spelled Mul(x, x) instead of Pow(x, 2): its Mul branch compares `reduce_mean_parent[0] != reduce_mean_parent[1]`,
indexing the NodeProto instead of its inputs, and raises TypeError ('NodeProto' object is not subscriptable).
The model is valid and onnxruntime runs it; the Pow(x, 2) spelling goes through the optimizer.
Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxruntime.transformers.optimizer import optimize_model


def model(square: str) -> onnx.ModelProto:
    sq = (
        helper.make_node("Mul", ["x", "x"], ["sq"])
        if square == "mul"
        else helper.make_node("Pow", ["x", "two"], ["sq"])
    )
    graph = helper.make_graph(
        [
            sq,
            helper.make_node("ReduceMean", ["sq"], ["ms"], axes=[-1]),
            helper.make_node("Add", ["ms", "eps"], ["v"]),
            helper.make_node("Sqrt", ["v"], ["r"]),
            helper.make_node("Div", ["x", "r"], ["n"]),
            helper.make_node("Mul", ["n", "w"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 8])],
        [
            numpy_helper.from_array(np.array(2.0, np.float32), "two"),
            numpy_helper.from_array(np.array(1e-6, np.float32), "eps"),
            numpy_helper.from_array(np.ones(8, np.float32), "w"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def optimized_ops(square: str) -> list[str]:
    """The op types optimize_model leaves on the valid model (checked, and run by onnxruntime, first)."""
    m = model(square)
    onnx.checker.check_model(m, full_check=True)
    feed = {"x": np.linspace(-3, 3, 16, dtype=np.float32).reshape(2, 8)}
    ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)
    return [n.op_type for n in optimize_model(m, "bert", num_heads=0, hidden_size=0, opt_level=0).model.graph.node]


print("Pow(x, 2):", optimized_ops("pow"))
try:
    print("Mul(x, x):", optimized_ops("mul"))
except TypeError as exc:
    print("BUG: optimize_model raised TypeError:", exc)
    sys.exit(1)
print("ok")
