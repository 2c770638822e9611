"""onnxruntime 1.32.0 at ORT_ENABLE_EXTENDED (constant folding) saves an IR-version-3 model whose folded
initializer (`B_f64 = Cast(B)`) is not a graph input; IR < 4 requires every initializer to be one (onnx IR.md),
so the checker rejects the saved model. Exit 1 while the bug is present."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

F, D = onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE
b = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4)
graph = helper.make_graph(
    [
        helper.make_node("Cast", ["A"], ["A_f64"], to=D),
        helper.make_node("Cast", ["B"], ["B_f64"], to=D),
        helper.make_node("Greater", ["A_f64", "B_f64"], ["C"]),
    ],
    "g",
    [helper.make_tensor_value_info("A", F, [2, 3, 4]), helper.make_tensor_value_info("B", F, [2, 3, 4])],
    [helper.make_tensor_value_info("C", onnx.TensorProto.BOOL, [2, 3, 4])],
    [numpy_helper.from_array(b, "B")],  # IR 3: the initializer is also a graph input
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 7)], ir_version=3)
onnx.checker.check_model(model, full_check=True)
with tempfile.TemporaryDirectory() as d:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = os.path.join(d, "opt.onnx")
    ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    out = onnx.load(so.optimized_model_filepath)
print("ir", out.ir_version, "inputs", [i.name for i in out.graph.input], "inits", [t.name for t in out.graph.initializer])
try:
    onnx.checker.check_model(out)
except onnx.checker.ValidationError as exc:
    print("BUG:", str(exc).splitlines()[0])
    sys.exit(1)
print("ok")
