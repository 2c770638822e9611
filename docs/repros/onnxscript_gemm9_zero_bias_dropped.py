"""onnxscript 0.7.2 optimize() drops Gemm's all-zero C in an opset-9 model, where C is required (Gemm-9:
3 inputs; optional only from Gemm-11). The checker then rejects the output. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxscript.optimizer
from onnx import helper, numpy_helper

rng = np.random.default_rng(0)
graph = helper.make_graph(
    [helper.make_node("Gemm", ["A", "B", "C"], ["Y"])],
    "g",
    [helper.make_tensor_value_info("A", onnx.TensorProto.FLOAT, [3, 4])],
    [helper.make_tensor_value_info("Y", onnx.TensorProto.FLOAT, [3, 5])],
    [
        numpy_helper.from_array(rng.standard_normal((4, 5)).astype(np.float32), "B"),
        numpy_helper.from_array(np.zeros(5, np.float32), "C"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)], ir_version=4)
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxscript.optimizer.optimize(model)
print([(n.op_type, list(n.input)) for n in out.graph.node])
try:
    onnx.checker.check_model(out, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG:", str(exc).splitlines()[0])
    sys.exit(1)
print("ok")
