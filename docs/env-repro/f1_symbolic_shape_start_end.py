"""ort symbolic_shape_infer on Shape-15 with start/end feeding a Reshape target (no passcheck)."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

g = h.make_graph(
    [
        h.make_node("Shape", ["x"], ["s"], start=1, end=3),
        h.make_node("Concat", ["m1", "s"], ["t"], axis=0),
        h.make_node("Reshape", ["x", "t"], ["y"]),
    ],
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4, 5])],
    [h.make_tensor_value_info("y", T.FLOAT, None)],
    [h.make_tensor("m1", T.INT64, [1], [-1])],
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 15)], ir_version=8)
out = SymbolicShapeInference.infer_shapes(m)
ann = [d.dim_value or d.dim_param for d in out.graph.output[0].type.tensor_type.shape.dim]
got = (
    ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    .run(None, {"x": np.zeros((2, 3, 4, 5), np.float32)})[0]
    .shape
)
print("onnxruntime", ort.__version__, "annotated", ann, "run", list(got))
try:
    onnx.checker.check_model(out, full_check=True)
    print("checker ok")
except Exception as e:
    print("checker:", str(e).splitlines()[0][:200])
raise SystemExit(0 if list(got) == ann else 1)
