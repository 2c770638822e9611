"""onnxruntime's symbolic shape inference gives up on Expand whose shape input is not a constant.

y = Expand(v, s): v a float scalar initializer, s an int64[3] graph input (its values known at run
time only). The output rank is len(s) = 3 (Operators.md Expand-13: multidirectional broadcast of v to
s), exactly as for ConstantOfShape(s), Reshape(x, s), which the tool types with fresh symbols.
_infer_Expand only handles a shape whose values it knows (as_list(_try_get_value(node, 1))) and
leaves the output untyped, so infer_shapes raises "Incomplete symbolic shape inference" (and writes
sym_shape_infer_temp.onnx into the working directory). The same value spelled ConstantOfShape(s,
value=[1.5]) is inferred. Exit 1 while the bug is present.
"""
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

OPSET = 13
s_in = helper.make_tensor_value_info("s", onnx.TensorProto.INT64, [3])
y_out = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [None, None, None])
v = helper.make_tensor("v", onnx.TensorProto.FLOAT, [], [1.5])


def model(node):
    g = helper.make_graph([node], "g", [s_in], [y_out], initializer=[v] if "v" in node.input else [])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
    onnx.checker.check_model(m, full_check=True)
    return m


expand = model(helper.make_node("Expand", ["v", "s"], ["y"]))
cos = model(helper.make_node("ConstantOfShape", ["s"], ["y"], value=helper.make_tensor("c", onnx.TensorProto.FLOAT, [1], [1.5])))

feed = {"s": np.array([2, 3, 4], dtype=np.int64)}
for name, m in (("Expand", expand), ("ConstantOfShape", cos)):
    got = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]
    print(f"{name}: onnxruntime runs it: shape {got.shape}, all 1.5: {bool(np.all(got == 1.5))}")

os.chdir(tempfile.mkdtemp())  # the tool writes sym_shape_infer_temp.onnx on failure
out = SymbolicShapeInference.infer_shapes(cos)
print("ConstantOfShape form: y inferred as", [d.dim_param or d.dim_value for d in out.graph.output[0].type.tensor_type.shape.dim])
try:
    out = SymbolicShapeInference.infer_shapes(expand)
except Exception as exc:  # noqa: BLE001
    print(f"BUG: Expand form: infer_shapes raised {type(exc).__name__}: {exc}; left behind: {os.listdir('.')}")
    sys.exit(1)
print("fixed: Expand form: y inferred as", [d.dim_param or d.dim_value for d in out.graph.output[0].type.tensor_type.shape.dim])
