"""onnxruntime 1.32.0 at ORT_ENABLE_BASIC gives a wrong result for a valid opset-13 model:
y = Transpose(DequantizeLinear(QuantizeLinear(Transpose(x), s, z), s)), z an int8 0, the DequantizeLinear's zero
point omitted (Operators.md DequantizeLinear-13: x_zero_point is optional, 0 when omitted; x is int8 here).
The transpose optimizer rebuilds the Q/DQ pair it moves the Transposes through with the DequantizeLinear's
inputs; with no zero point the new QuantizeLinear produces uint8 (QuantizeLinear-13: uint8 when y_zero_point is
omitted), so every negative element becomes 0. The opset-21 spelling is right in 1.32.0 (microsoft/onnxruntime
#29192 gives the new node output_dtype, which only opset 21 has); 1.22.1 and 1.25.1 get both wrong.
Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

graph = helper.make_graph(
    [
        helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0]),
        helper.make_node("QuantizeLinear", ["t", "s", "z"], ["q"]),
        helper.make_node("DequantizeLinear", ["q", "s"], ["d"]),
        helper.make_node("Transpose", ["d"], ["y"], perm=[1, 0]),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(np.array(0.5, np.float32), "s"), numpy_helper.from_array(np.array(0, np.int8), "z")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
onnx.checker.check_model(model, full_check=True)
feed = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2}
expected = np.clip(np.rint(feed["x"] / 0.5), -128, 127) * 0.5  # Q then DQ with zero point 0, int8
print("expected", expected.ravel().tolist())
out = {}
for level, disabled in (
    ("ORT_DISABLE_ALL", []),
    ("ORT_ENABLE_BASIC", []),
    ("ORT_ENABLE_BASIC", ["TransposeOptimizer"]),
):
    so = ort.SessionOptions()
    so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    sess = ort.InferenceSession(model.SerializeToString(), so, ["CPUExecutionProvider"], disabled_optimizers=disabled)
    out[(level, tuple(disabled))] = sess.run(None, feed)[0]
    print(level, "disabled:", disabled, out[(level, tuple(disabled))].ravel().tolist())
bug = not np.array_equal(out[("ORT_DISABLE_ALL", ())], out[("ORT_ENABLE_BASIC", ())])
sys.exit(1 if bug else 0)
