"""onnx 1.23.2 onnx.utils.Extractor(model).extract_model(inputs, outputs) on an IR-3 model whose initializer is, as
IR 3 requires, also a graph input: asked for the sub-model between the non-initializer inputs and the outputs, it
keeps the initializer but not its graph input, and writes the model's own ir_version 3. IR.md (IR version 3): every
initializer must also be a graph input. The output fails the checker ("w in initializer but not in graph input");
named among the inputs, the initializer stays one. Same in onnx 1.16.2. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx.utils
import onnxruntime as ort
from onnx import TensorProto, helper

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
w = helper.make_tensor_value_info("w", TensorProto.FLOAT, [2])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
graph = helper.make_graph(
    [helper.make_node("Mul", ["x", "w"], ["y"])],
    "g",
    [x, w],
    [y],
    initializer=[helper.make_tensor("w", TensorProto.FLOAT, [2], [1.0, 2.0])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 7)], ir_version=3)
onnx.checker.check_model(model, full_check=True)
out = onnx.utils.Extractor(model).extract_model(["x"], ["y"])
print(
    "ir_version:",
    out.ir_version,
    "| inputs:",
    [i.name for i in out.graph.input],
    "| initializers:",
    [t.name for t in out.graph.initializer],
)
try:
    onnx.checker.check_model(out, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG:", " ".join(str(exc).split())[:160])
    sys.exit(1)
print("ok", ort.InferenceSession(out.SerializeToString()).run(None, {"x": np.ones(2, np.float32)})[0])
