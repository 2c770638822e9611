"""onnxslim.slim crashes on a valid model that imports only the ai.onnx.ml domain (onnx's backend node
test test_ai_onnx_ml_binarizer: one Binarizer node)."""

import onnx
import onnxslim
from onnx import TensorProto, helper

node = helper.make_node("Binarizer", ["X"], ["Y"], domain="ai.onnx.ml", threshold=1.0)
g = helper.make_graph(
    [node],
    "g",
    [helper.make_tensor_value_info("X", TensorProto.FLOAT, [3, 4])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [3, 4])],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("ai.onnx.ml", 1)])
onnx.checker.check_model(m, full_check=True)
print("checker ok; opset imports:", [(o.domain, o.version) for o in m.opset_import])
try:
    onnxslim.slim(m)
    print("onnxslim ok")
except Exception as e:
    print("onnxslim FAILS:", type(e).__name__, e)
