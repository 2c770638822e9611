"""onnx 1.23.2's inliner with schema functions (`onnx.inliner.inline_selected_functions(model, [], exclude=True,
inline_schema_functions=True)`, onnx/inliner/inliner.cc) aborts on an op whose function body depends on its input
types (LayerNormalization-17, Clip's context-dependent body, …) when such an input is an initializer: it looks the
type up among graph inputs, outputs and value_info only ("GetType: Assertion `false` failed: Type unknown for
scale"), though an initializer carries its element type and shape (IR.md, "Initializers"). The model is valid, onnx's
own shape inference types it, and onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx.inliner
import onnxruntime as ort
from onnx import helper, numpy_helper

T = onnx.TensorProto.FLOAT
graph = helper.make_graph(
    [helper.make_node("LayerNormalization", ["x", "scale", "bias"], ["y"], axis=-1)],
    "g",
    [helper.make_tensor_value_info("x", T, [2, 8])],
    [helper.make_tensor_value_info("y", T, [2, 8])],
    [
        numpy_helper.from_array(np.ones(8, np.float32), "scale"),
        numpy_helper.from_array(np.zeros(8, np.float32), "bias"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 8)
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
try:
    out = onnx.inliner.inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, str(exc).splitlines()[0][:300])
    sys.exit(1)
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
print([n.op_type for n in out.graph.node])
print("ok" if np.allclose(got, expected, atol=1e-5) else "BUG: values differ")
sys.exit(0 if np.allclose(got, expected, atol=1e-5) else 1)
