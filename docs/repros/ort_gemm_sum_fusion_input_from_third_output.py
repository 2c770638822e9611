"""onnxruntime GemmSumFusion (ORT_ENABLE_BASIC, core/optimizer/gemm_sum_fusion.cc) moves the Gemm's input edges to the
fused Gemm and asserts each edge's producer output index is below 2, as if it were the Gemm's input slot. A Gemm whose
A is the third output of its producer (here a Split into three equal parts) is a valid model (IR.md: a node's outputs
are positional, any of them may be read), yet the session fails at initialization. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

nodes = [
    helper.make_node("Concat", ["x", "x", "x"], ["x3"], axis=0),
    helper.make_node("Split", ["x3"], ["p0", "p1", "p2"], axis=0),  # three equal parts: each is x
    helper.make_node("Gemm", ["p2", "w"], ["g"]),  # no C: GemmSumFusion takes the Sum's other operand
    helper.make_node("Sum", ["g", "c"], ["y"]),
]
rng = np.random.default_rng(0)
inits = [
    numpy_helper.from_array(rng.standard_normal((8, 4)).astype(np.float32), "w"),
    numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "c"),
]
graph = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(model, full_check=True)  # the input is valid
x = rng.standard_normal((2, 8)).astype(np.float32)
expected = x @ numpy_helper.to_array(inits[0]) + numpy_helper.to_array(inits[1])


def run(level):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    so.log_severity_level = 4
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


np.testing.assert_allclose(run(ort.GraphOptimizationLevel.ORT_DISABLE_ALL), expected, rtol=1e-5, atol=1e-5)
try:
    got = run(ort.GraphOptimizationLevel.ORT_ENABLE_BASIC)
except Exception as exc:  # noqa: BLE001 - the session's refusal is the finding
    print("BUG:", ort.__version__, str(exc).strip().splitlines()[0][:240])
    sys.exit(1)
np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
print("ok", ort.__version__)
