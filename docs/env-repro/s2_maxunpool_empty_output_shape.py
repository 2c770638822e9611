"""onnxruntime running MaxUnpool-11 with its optional output_shape input spelled "" (IR.md: an empty name
is an omitted optional input). No passcheck."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h


def model(inputs):
    g = h.make_graph(
        [h.make_node("MaxUnpool", inputs, ["y"], kernel_shape=[2, 2], strides=[2, 2])],
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 2, 2]), h.make_tensor_value_info("i", T.INT64, [1, 1, 2, 2])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, 1, 4, 4])],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 11)], ir_version=7)
    onnx.checker.check_model(m, full_check=True)
    return m.SerializeToString()


feeds = {"x": np.array([[[[1, 2], [3, 4]]]], np.float32), "i": np.array([[[[0, 3], [9, 15]]]], np.int64)}
want = ort.InferenceSession(model(["x", "i"]), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
try:
    got = ort.InferenceSession(model(["x", "i", ""]), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
except Exception as e:
    print("onnxruntime", ort.__version__, 'omitted: ok; "": fails:', str(e)[:200])
    raise SystemExit(1) from None
print("onnxruntime", ort.__version__, "same:", np.array_equal(want, got))
raise SystemExit(0 if np.array_equal(want, got) else 1)
