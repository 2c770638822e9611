"""onnxscript's constant folder (optimizer/_constant_folding.py, the partial evaluator registered for CastLike)
rewrites `CastLike(x, t)` whose element types differ as `Cast(x, to=<t's type>)` and writes no other attribute:
CastLike-19's `saturate` is dropped, and Cast then takes its default 1. Operators.md Cast-19 / CastLike-19:
`saturate` "is only used with float 8 types"; with 0 a value beyond float8e4m3fn's range (448) becomes NaN, with 1
it becomes 448. The model passes the full checker and onnxruntime (every optimization off) gives NaN; after
`onnxscript.optimizer.optimize` it gives 448. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnxscript import optimizer


def run(model, feeds):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


nodes = [
    helper.make_node("CastLike", ["x", "t"], ["c"], saturate=0),
    helper.make_node("Cast", ["c"], ["y"], to=TensorProto.FLOAT),
]
graph = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    [helper.make_tensor("t", TensorProto.FLOAT8E4M3FN, [1], [1.0])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
onnx.checker.check_model(model, full_check=True)  # the input is valid
feeds = {"x": np.array([1.0, 1000.0, -1000.0], np.float32)}
want = run(model, feeds)  # [1, nan, nan]
optimized = optimizer.optimize(model)
got = run(optimized, feeds)
print("ops after optimize:", [(n.op_type, [a.name for a in n.attribute]) for n in optimized.graph.node])
print("expected", want, "got", got)
sys.exit(0 if np.array_equal(want, got, equal_nan=True) else 1)
