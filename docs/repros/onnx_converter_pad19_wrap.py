"""onnx.version_converter: Pad-19 -> 18 keeps mode = "wrap", a mode Pad-19 added (Operators.md Pad-19; Pad-18
and earlier list constant, reflect, edge only). convert.h registers CompatibleAdapter("Pad", 19, 18): the node is
only restamped, so the opset-18 model holds a mode its schema does not define (the checker does not read string
values and passes it). Exits 1 while the converted model keeps the mode."""

import sys

import numpy as np
import onnx
import onnx.version_converter as vc
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

x = h.make_tensor_value_info("x", T.FLOAT, [2, 3])
y = h.make_tensor_value_info("y", T.FLOAT, [2, 5])
pads = nh.from_array(np.array([0, 1, 0, 1], np.int64), "pads")
node = h.make_node("Pad", ["x", "pads"], ["y"], mode="wrap")
m = h.make_model(h.make_graph([node], "g", [x], [y], [pads]), opset_imports=[h.make_opsetid("", 19)], ir_version=9)
onnx.checker.check_model(m, full_check=True)  # valid at opset 19

documented_18 = onnx.defs.get_schema("Pad", 18, "").attributes["mode"].description
print("onnx", onnx.__version__, "| Pad-18 documents wrap:", "wrap" in documented_18)
try:
    out = vc.convert_version(m, 18)
except RuntimeError as e:  # a stated refusal is right too
    print("-> opset 18 refused:", str(e).split("failed: ")[-1])
    sys.exit(0)
onnx.checker.check_model(out, full_check=True)
modes = [a.s.decode() for n in out.graph.node for a in n.attribute if a.name == "mode"]
print("-> opset", out.opset_import[0].version, "Pad mode:", modes)
sys.exit(1 if "wrap" in modes and "wrap" not in documented_18 else 0)
