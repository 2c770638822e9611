"""onnx.version_converter: QuantizeLinear-19, Cast-19 and CastLike-19 -> 18 keep the attribute `saturate`, which
opset 19 added (Operators.md QuantizeLinear-19 / Cast-19 / CastLike-19; the opset-18 schemas have no such
attribute). convert.h registers TypeRestriction(op, 19, 18, float8 types) for the three: it refuses float8 element
types and otherwise only restamps the node, so an integer-output node that spells `saturate` (its stated default, 1,
inert: "only used" for float8 outputs) becomes an opset-18 node the checker refuses ("Unrecognized attribute:
saturate"). Dropping the attribute is right for every type the adapter lets through. Exits 1 while a converted
model keeps it; 0 when each conversion gives a valid model or states a refusal."""

import sys

import numpy as np
import onnx
import onnx.version_converter as vc
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

x = h.make_tensor_value_info("x", T.FLOAT, [2, 3])
s = nh.from_array(np.array(0.1, np.float32), "s")
z = nh.from_array(np.array(3, np.uint8), "z")
models = {
    "QuantizeLinear": h.make_graph(
        [h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], saturate=1)],
        "q",
        [x],
        [h.make_tensor_value_info("y", T.UINT8, [2, 3])],
        [s, z],
    ),
    "Cast": h.make_graph(
        [h.make_node("Cast", ["x"], ["y"], to=T.INT32, saturate=1)],
        "c",
        [x],
        [h.make_tensor_value_info("y", T.INT32, [2, 3])],
    ),
    "CastLike": h.make_graph(
        [h.make_node("CastLike", ["x", "t"], ["y"], saturate=1)],
        "cl",
        [x],
        [h.make_tensor_value_info("y", T.INT32, [2, 3])],
        [nh.from_array(np.array([0], np.int32), "t")],
    ),
}
print("onnx", onnx.__version__)
bad = 0
for op, g in models.items():
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 19)], ir_version=9)
    onnx.checker.check_model(m, full_check=True)  # valid at opset 19
    try:
        out = vc.convert_version(m, 18)
    except RuntimeError as e:  # a stated refusal is right too
        print(f"{op}: opset 18 refused:", str(e).split("failed: ")[-1])
        continue
    try:
        onnx.checker.check_model(out, full_check=True)
        print(f"{op}: opset 18 valid, attributes", [a.name for a in out.graph.node[0].attribute])
    except onnx.checker.ValidationError as e:
        print(f"{op}: opset 18 model refused by the checker:", str(e).splitlines()[0])
        bad += 1
sys.exit(1 if bad else 0)
