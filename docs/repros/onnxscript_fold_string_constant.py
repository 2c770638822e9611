"""onnxscript 0.7.2 optimize() (FoldConstantsPass, optimizer/_constant_folding.py, with onnx-ir 1.1.0) fails on a
valid model where a node computes a string tensor from constants only: `t = Identity(s)`, `s` a string initializer
(IR.md: an initializer may hold any tensor element type; Identity-19 takes string). The folded value is held as a
numpy object array in a plain ir.Tensor, whose serialization asks the bit width of STRING: "TypeError: Bitwidth
not available for ONNX data type: STRING". onnxruntime runs the model. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript import optimizer

S = onnx.TensorProto.STRING
graph = helper.make_graph(
    [helper.make_node("Identity", ["s"], ["t"]), helper.make_node("Equal", ["t", "x"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", S, [2])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.BOOL, [2])],
    [numpy_helper.from_array(np.array(["a", "bc"], dtype=object), "s")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
onnx.checker.check_model(model, full_check=True)  # the input is valid
x = np.array(["a", "b"], dtype=object)
want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
try:
    out = optimizer.optimize(onnx.ModelProto.FromString(model.SerializeToString()))
except Exception as exc:  # noqa: BLE001 - the pass's error is the finding
    while exc.__cause__ is not None:
        exc = exc.__cause__
    print("BUG:", type(exc).__name__, str(exc)[:300])
    sys.exit(1)
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
if not np.array_equal(want, got):
    print("BUG:", got, "vs", want)
    sys.exit(1)
print("ok")
