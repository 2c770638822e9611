"""onnx version_converter, one opset down: adapters keep what the older operator version lacks.

1. ReduceSum-13 -> 12 and ReduceProd-18 -> 17 with noop_with_empty_axes=0 written out (its default,
   Operators.md ReduceSum-13 / ReduceProd-18): the axes-input-to-attribute adapter moves `axes` but
   keeps noop_with_empty_axes, which ReduceSum-11 / ReduceProd-13 do not have.
2. Dropout-10 -> 9 (a CompatibleAdapter in onnx/version_converter/convert.h) with its mask output
   named: Dropout-10's mask is bool (T1), Dropout-7's is T (the data type); the converted model
   keeps the mask declared bool, and Dropout-7 infers float.
Each input is valid (full check); with the attribute omitted / the mask unnamed the output is valid.
Exits 1 while an output is invalid.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, version_converter

f = lambda n, s, t=TensorProto.FLOAT: helper.make_tensor_value_info(n, t, s)  # noqa: E731
axes = numpy_helper.from_array(np.array([1], np.int64), "axes")


def model(node, opset, ir, out, inits=(), dtype=TensorProto.FLOAT):
    g = helper.make_graph([node], "g", [f("data", [2, 3, 4] if inits else [5], dtype)], [out], list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=ir)


cases = []
for op, opset, dtype in (("ReduceSum", 13, TensorProto.FLOAT), ("ReduceProd", 18, TensorProto.INT32)):
    for attrs in ({"noop_with_empty_axes": 0}, {}):
        node = helper.make_node(op, ["data", "axes"], ["reduced"], keepdims=1, **attrs)
        cases.append(
            (
                f"{op}-{opset} {attrs or 'attribute omitted'}",
                opset - 1,
                model(node, opset, 8, f("reduced", [2, 1, 4], dtype), [axes], dtype),
            )
        )
for outputs in (["output", "mask"], ["output"]):
    node = helper.make_node("Dropout", ["data"], outputs)
    cases.append((f"Dropout-10 outputs {outputs}", 9, model(node, 10, 5, f("output", [5]))))

bad = False
for label, target, m in cases:
    onnx.checker.check_model(m, full_check=True)
    out = version_converter.convert_version(m, target)
    try:
        onnx.checker.check_model(out, full_check=True)
        print(f"{label} -> opset {target}: valid")
    except Exception as e:  # the finding
        print(f"{label} -> opset {target}: INVALID: {str(e).splitlines()[0][:130]}")
        bad = True
sys.exit(1 if bad else 0)
