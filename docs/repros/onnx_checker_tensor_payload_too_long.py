"""onnx's checker accepts a tensor whose data field holds more elements than its dims.

onnx.proto TensorProto: the data fields hold the tensor's elements and `dims` their count. onnx 1.23's checker
(`check_tensor`, onnx/checker.cc) rejects a payload that is too small for the dims (onnx/onnx#8211, #8319) and
lets one that is too large through: `y = Identity(w)`, `w: float[4]` whose `float_data` (or `raw_data`,
`int64_data`, `int32_data` of an int8) holds 5 elements, is accepted by `check_model(full_check=True)` while onnx's
own `helper.make_tensor` refuses to build it ("Number of values (5) does not match tensor dimensions requiring 4
elements"), `numpy_helper.to_array` cannot read it and onnxruntime refuses to load it ("data field count (5) does
not match expected count from shape (4)"). Exits 1 while the checker accepts any of the four, 0 once it refuses all.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(t):
    out = [helper.make_tensor_value_info("y", t.data_type, [4])]
    g = helper.make_graph([helper.make_node("Identity", ["w"], ["y"])], "g", [], out, [t])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


tensors = {}
t = numpy_helper.from_array(np.arange(4, dtype=np.float32), "w")
t.raw_data += t.raw_data[-4:]
tensors["float raw_data, 20 bytes"] = t
t = helper.make_tensor("w", TensorProto.FLOAT, [4], [0.0, 1.0, 2.0, 3.0])
t.float_data.append(3.0)
tensors["float float_data, 5 values"] = t
t = helper.make_tensor("w", TensorProto.INT64, [4], [0, 1, 2, 3])
t.int64_data.append(3)
tensors["int64 int64_data, 5 values"] = t
t = helper.make_tensor("w", TensorProto.INT8, [4], [0, 1, 2, 3])
t.int32_data.append(3)
tensors["int8 int32_data, 5 values"] = t

print("onnx", onnx.__version__)
bug = False
for what, t in tensors.items():
    try:
        numpy_helper.to_array(t)
        print(f"{what}: onnx's reader reads it (not a broken payload here)")
        continue
    except ValueError as exc:
        reader = str(exc)[:60]
    try:
        onnx.checker.check_model(model(t), full_check=True)
    except onnx.checker.ValidationError as exc:
        print(f"{what}: refused by the checker ({str(exc).splitlines()[0][:100]})")
        continue
    print(f"BUG: {what} for dims [4]: the checker accepts it; numpy_helper.to_array: {reader}")
    bug = True
sys.exit(1 if bug else 0)
