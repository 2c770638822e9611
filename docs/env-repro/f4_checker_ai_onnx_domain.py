"""onnx.checker on a model importing the default domain as "ai.onnx" (IR.md: "" and "ai.onnx" name the same
operator set). No passcheck."""

import onnx
from onnx import TensorProto as T
from onnx import helper as h

g = h.make_graph(
    [h.make_node("Flatten", ["x"], ["y"], axis=-1)],
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])],
    [h.make_tensor_value_info("y", T.FLOAT, [6, 4])],
)
m = h.make_model(g, opset_imports=[h.make_opsetid("ai.onnx", 13)], ir_version=8)
try:
    onnx.checker.check_model(m, full_check=True)
except Exception as e:
    print("onnx", onnx.__version__, "rejects:", str(e).splitlines()[0][:160])
    raise SystemExit(1) from None
print("onnx", onnx.__version__, "accepts")
