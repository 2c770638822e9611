"""onnx's strict shape inference accepts GatherElements and ScatterElements with any axis.

Operators.md GatherElements and ScatterElements, attribute axis: the axis gathered / scattered along, within
[-r, r-1], r the rank of data. onnx 1.16.2 ... 1.23.2's inference functions for both (opset 11 on) do not check it:
`y = GatherElements(x, j, axis=a)` and `y = ScatterElements(x, j, u, axis=a)`, `x: float[2, 3]`, `j` an int64
[2, 3] initializer (`u` float [2, 3]), opset 18, pass `check_model(full_check=True)` and
`infer_shapes(strict_mode=True)` for a = 2, 7 and -3, while Gather, Concat, Split, Softmax and TopK with the same
out-of-range axis are refused. onnxruntime 1.32.0 loads both and fails at run time ("axis 2 is not in valid range
[-2,1]"). Found by the inference probes (M531, `axis-past-end`) on every generated GatherElements / ScatterElements
form.
Exits 1 while strict inference accepts any of the six, 0 once it refuses all.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(op, axis):
    inits = [numpy_helper.from_array(np.zeros((2, 3), np.int64), "j")]
    inputs = ["x", "j"]
    if op == "ScatterElements":
        inits.append(numpy_helper.from_array(np.ones((2, 3), np.float32), "u"))
        inputs.append("u")
    g = helper.make_graph(
        [helper.make_node(op, inputs, ["y"], axis=axis)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


bad = False
for op in ("GatherElements", "ScatterElements"):
    for axis in (2, 7, -3):
        try:
            onnx.shape_inference.infer_shapes(model(op, axis), strict_mode=True)
        except Exception as e:  # noqa: BLE001 - the refusal expected
            print(f"{op} axis = {axis}: refused ({str(e).splitlines()[0][:100]})")
            continue
        print(f"{op} axis = {axis}: accepted by strict shape inference (x has rank 2)")
        bad = True
sys.exit(1 if bad else 0)
