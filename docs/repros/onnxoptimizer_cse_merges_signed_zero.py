"""onnxoptimizer 0.4.2's `eliminate_common_subexpression` (a default pass of `onnxoptimizer.optimize`) merges a
Constant holding 0.0 with one holding -0.0: its node equality compares float tensor values with `!=` and its hash
treats the two alike (`passes/cse_util.h`, CSETensorCompare / CSETensorHash), under which 0.0 == -0.0. IEEE 754 keeps
the sign of zero and Operators.md's Div computes x / -0.0 = -inf for x > 0, so the merged model computes +inf where
the model computes -inf. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxoptimizer
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

nodes = [
    helper.make_node("Constant", [], ["a"], value=numpy_helper.from_array(np.full((2,), 0.0, np.float32), "z")),
    helper.make_node("Constant", [], ["b"], value=numpy_helper.from_array(np.full((2,), -0.0, np.float32), "z")),
    helper.make_node("Div", ["x", "a"], ["ya"]),
    helper.make_node("Div", ["x", "b"], ["yb"]),
]
graph = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in ("ya", "yb")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
onnx.checker.check_model(model, full_check=True)


def run(m: onnx.ModelProto) -> list:
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(m.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, {"x": np.ones(2, np.float32)})


before, after = run(model), run(onnxoptimizer.optimize(model))
print("model:    ", before)
print("optimized:", after)
if not np.array_equal(before[1], after[1]):
    print("BUG: the Constant -0.0 was merged into the Constant 0.0 (x / -0.0 became +inf)")
    sys.exit(1)
print("ok")
