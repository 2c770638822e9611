"""onnx.version_converter: Resize 10 -> 11 leaves the attributes Resize-11 added to their defaults, so a
mode = "linear" Resize computes other numbers after the conversion.

Resize-10 maps an output coordinate back as x_resized / scale (Operators.md Resize-10; Resize-11 calls that reading
coordinate_transformation_mode = "asymmetric", and its nearest rounding "floor"). Resize-11 added
coordinate_transformation_mode (default "half_pixel") and nearest_mode (default "round_prefer_floor"); the 10 -> 11
adapter (version_converter/adapters/resize_10_11.h) rewrites the inputs (roi, scales) and writes neither attribute,
so the converted node reads half_pixel. Run by onnxruntime, the opset-10 model and its conversion
differ. Exits 1 while they differ, 0 once the adapter keeps Resize-10's reading
(onnx/onnx#8480, open)."""

import sys

import numpy as np
import onnx
import onnx.version_converter as vc
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

x = h.make_tensor_value_info("x", T.FLOAT, [1, 1, 2, 2])
y = h.make_tensor_value_info("y", T.FLOAT, [1, 1, 4, 4])
scales = nh.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
node = h.make_node("Resize", ["x", "scales"], ["y"], mode="linear")
m10 = h.make_model(h.make_graph([node], "g", [x], [y], [scales]), opset_imports=[h.make_opsetid("", 10)], ir_version=7)
onnx.checker.check_model(m10, full_check=True)  # valid at opset 10
m11 = vc.convert_version(m10, 11)
onnx.checker.check_model(m11, full_check=True)

feed = {"x": np.array([[[[1, 2], [3, 4]]]], np.float32)}


def ort_run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]


converted = next(n for n in m11.graph.node if n.op_type == "Resize")
print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
print("converted Resize attributes:", {a.name: h.get_attribute_value(a) for a in converted.attribute})
a, b = ort_run(m10), ort_run(m11)
print("onnxruntime, opset 10 row 0:", a[0, 0, 0].tolist(), "| converted:", b[0, 0, 0].tolist())
differ = not np.allclose(a, b)
print("->", "the conversion changes the output" if differ else "alike")
sys.exit(1 if differ else 0)
