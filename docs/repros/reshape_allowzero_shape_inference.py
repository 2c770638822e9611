"""onnxslim.slim (and onnxruntime's SymbolicShapeInference, which it derives from) ignore Reshape's allowzero=1.

y = Reshape<allowzero=1>(x, [2, 0, 4]), x: float[4, 2, 0]: with allowzero=1 a 0 in the shape is a
literal 0 (Operators.md Reshape-14), so y is [2, 0, 4] (onnx's shape inference and onnxruntime agree);
a 0 copies the input's dim only with allowzero=0. Exits 1 while a tool annotates y otherwise.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxslim
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

g = helper.make_graph(
    [helper.make_node("Reshape", ["x", "s"], ["y"], allowzero=1)],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 2, 0])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b", "c"])],
    [numpy_helper.from_array(np.array([2, 0, 4], np.int64), "s")],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
ran = list(ort.InferenceSession(m.SerializeToString()).run(None, {"x": np.zeros((4, 2, 0), np.float32)})[0].shape)


def dims(model):
    t = model.graph.output[0].type.tensor_type.shape.dim
    return [d.dim_value if d.HasField("dim_value") else d.dim_param for d in t]


bad = False
for name, out in (
    ("onnx.shape_inference", onnx.shape_inference.infer_shapes(m)),
    ("SymbolicShapeInference", SymbolicShapeInference.infer_shapes(m)),
    ("onnxslim.slim", onnxslim.slim(m)),
):
    got = dims(out)
    ok = all(isinstance(d, str) or d == r for d, r in zip(got, ran))
    print(f"{name}: y annotated {got}; onnxruntime gives {ran} -> {'ok' if ok else 'WRONG'}")
    bad |= not ok
sys.exit(1 if bad else 0)
