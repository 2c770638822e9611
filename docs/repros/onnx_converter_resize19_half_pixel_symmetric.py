"""onnx.version_converter: Resize-19 -> 18 keeps coordinate_transformation_mode = "half_pixel_symmetric", a mode
Resize-19 added (Operators.md Resize-19; Resize-18 and Resize-13 list half_pixel, pytorch_half_pixel,
align_corners, asymmetric, tf_crop_and_resize only). convert.h registers CompatibleAdapter("Resize", 19, 18): the
node is only restamped, so the opset-18 model holds a mode its schema does not define (the checker does not read
string values and passes it; onnxruntime's one Resize kernel runs it). The 18 -> 17 adapter (resize_18_17.h)
refuses the same mode as a stated limit. Exits 1 while the converted model keeps the mode."""

import sys

import numpy as np
import onnx
import onnx.version_converter as vc
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

x = h.make_tensor_value_info("x", T.FLOAT, [1, 1, 2, 2])
y = h.make_tensor_value_info("y", T.FLOAT, [1, 1, 4, 4])
scales = nh.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
node = h.make_node(
    "Resize", ["x", "", "scales"], ["y"], mode="linear", coordinate_transformation_mode="half_pixel_symmetric"
)
m = h.make_model(h.make_graph([node], "g", [x], [y], [scales]), opset_imports=[h.make_opsetid("", 19)], ir_version=9)
onnx.checker.check_model(m, full_check=True)  # valid at opset 19

documented_18 = onnx.defs.get_schema("Resize", 18, "").attributes["coordinate_transformation_mode"].description
print("onnx", onnx.__version__, "| Resize-18 documents half_pixel_symmetric:", "half_pixel_symmetric" in documented_18)
try:
    out = vc.convert_version(m, 18)
except RuntimeError as e:  # a stated refusal is right too
    print("-> opset 18 refused:", str(e).split("failed: ")[-1])
    sys.exit(0)
onnx.checker.check_model(out, full_check=True)
modes = [a.s.decode() for n in out.graph.node for a in n.attribute if a.name == "coordinate_transformation_mode"]
print("-> opset", out.opset_import[0].version, "Resize coordinate_transformation_mode:", modes)
sys.exit(1 if "half_pixel_symmetric" in modes and "half_pixel_symmetric" not in documented_18 else 0)
