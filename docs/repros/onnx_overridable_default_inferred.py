"""onnx shape inference reads a graph input's default (an initializer of the same name) as a constant.

``y = Reshape(x, s)``, ``x: float[2, 3, 4]``, ``s: int64[2]`` a graph input *and* an initializer ``[4, 6]``, IR 8,
opset 14. IR.md §Graphs: an initializer named like a graph input "specifies a default value for that input", and a
runtime MAY let the caller override it ("Names of constants that are not meant to be overridden by the caller should
appear only in the initializer list"). ``infer_shapes`` nevertheless reads the default as ``s``'s value and states
``y: [4, 6]``; fed ``s = [6, 4]`` (a valid input of the declared type and shape), onnxruntime computes ``y`` of shape
``(6, 4)``, so the inferred annotation fails on that run (the binding-map semantics of shape annotations: an
inferred annotation must hold on every run whose inputs satisfy the graph inputs' annotations). With ``s`` an
initializer only (a constant) the same inference is right. Exits 1 while the inferred shape contradicts the run.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

graph = helper.make_graph(
    [helper.make_node("Reshape", ["x", "s"], ["y"])],
    "g",
    [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4]),
        helper.make_tensor_value_info("s", TensorProto.INT64, [2]),
    ],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None])],
    [numpy_helper.from_array(np.array([4, 6], dtype=np.int64), "s")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
(y,) = onnx.shape_inference.infer_shapes(model, strict_mode=True).graph.output
inferred = [d.dim_value if d.HasField("dim_value") else d.dim_param or None for d in y.type.tensor_type.shape.dim]
session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
x = np.zeros((2, 3, 4), dtype=np.float32)
default = session.run(None, {"x": x})[0].shape
overridden = session.run(None, {"x": x, "s": np.array([6, 4], dtype=np.int64)})[0].shape
print(
    "onnx", onnx.__version__, "inferred y:", inferred, "| run with the default:", default, "| s = [6, 4]:", overridden
)
sys.exit(1 if inferred == [4, 6] and overridden == (6, 4) else 0)
