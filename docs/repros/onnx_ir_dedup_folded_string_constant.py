"""onnx-ir 1.1.0 DeduplicateInitializersPass (passes/common/initializer_deduplication.py, `_tobytes`), as onnxscript
0.7.2's optimize() runs it (also 0.6.2, 0.7.0), fails on a valid model where a string value of 21 to 1024 elements is
computed from constants: `t = Identity(s)`, `s` a string initializer of 24 elements (IR.md: an initializer may hold
any tensor element type; Identity-19 takes string). The folder keeps the folded value as a numpy object array in a
plain ir.Tensor (what `onnx_ir.tensor()` also builds for such an array); the optimizer lifts it to an initializer and
the deduplication pass keys string tensors by `string_data()`, which only StringTensor and the proto-backed tensor
have: "AttributeError: 'Tensor' object has no attribute 'string_data'". Up to 20 elements the folder's own shape
inference serializes the value first and fails as docs/found.md row 430 says; above 1024 the pass skips the tensor.
onnxruntime runs the model. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript import optimizer

N = 24
S = onnx.TensorProto.STRING
graph = helper.make_graph(
    [helper.make_node("Identity", ["s"], ["t"]), helper.make_node("Equal", ["t", "x"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", S, [N])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.BOOL, [N])],
    [numpy_helper.from_array(np.array([f"s{i}" for i in range(N)], dtype=object), "s")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
onnx.checker.check_model(model, full_check=True)  # the input is valid
x = np.array([f"s{i}" if i % 2 else "-" for i in range(N)], dtype=object)
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
