"""onnxslim.slim: Einsum with an implicit output ("cba") annotated in first-appearance order.

Operators.md Einsum-12: without "->" the output's subscripts are the once-appearing letters in
alphabetical order, so "cba" on x: float[4, 2, 3] gives [3, 2, 4] (onnx's shape inference and
onnxruntime agree). onnxslim's shape inference (derived from onnxruntime's SymbolicShapeInference,
docs/found.md row 16) gives [4, 2, 3] and writes it on the graph output. Exits 1 while it does.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxslim
from onnx import TensorProto, helper

g = helper.make_graph(
    [helper.make_node("Einsum", ["x"], ["y"], equation="cba")],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 2, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b", "c"])],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
ran = list(ort.InferenceSession(m.SerializeToString()).run(None, {"x": np.zeros((4, 2, 3), np.float32)})[0].shape)
got = [d.dim_value or d.dim_param for d in onnxslim.slim(m).graph.output[0].type.tensor_type.shape.dim]
print(f"onnxslim annotates y {got}; onnxruntime gives {ran}")
sys.exit(0 if got == ran else 1)
