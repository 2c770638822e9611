"""onnxruntime running ReduceSum-13 with noop_with_empty_axes=1 and no axes input: the spec returns the
input unchanged (Operators.md, ReduceSum-13). No passcheck."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h

g = h.make_graph(
    [h.make_node("ReduceSum", ["x"], ["y"], noop_with_empty_axes=1)],
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, ["N", 2, 3])],
    [h.make_tensor_value_info("y", T.FLOAT, ["N", 2, 3])],
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)], ir_version=7)
onnx.checker.check_model(m, full_check=True)
x = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
try:
    y = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
except Exception as e:
    print("onnxruntime", ort.__version__, "fails:", str(e)[:300])
    raise SystemExit(1) from None
print("onnxruntime", ort.__version__, "equal to input:", np.array_equal(y, x))
raise SystemExit(0 if np.array_equal(y, x) else 1)
