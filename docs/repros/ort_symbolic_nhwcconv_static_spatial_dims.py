"""onnxruntime's symbolic shape inference (``onnxruntime/tools/symbolic_shape_infer.py``) raises "TypeError: object
of type 'NoneType' has no len()" on a com.microsoft NhwcConv whose input's spatial dims are all static
(``X: [1, 5, 6, 3]``, ``W: [2, 3, 2, 2]``). ``_compute_conv_pool_shape`` takes that case from the output's shape
onnx's inference wrote, which onnx cannot write for an op of onnxruntime's own domain, and calls ``len`` on the
missing shape. onnxruntime's strict graph resolution refuses the model only for the missing CPU kernel; the same
node with spatial dims ``H, W`` symbolic is inferred. Exits 1 while the static form raises and the symbolic one is
inferred."""

import sys

import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference


def model(x):
    node = h.make_node("NhwcConv", ["X", "W"], ["Y"], domain="com.microsoft")
    g = h.make_graph(
        [node],
        "g",
        [h.make_tensor_value_info("X", T.FLOAT, x), h.make_tensor_value_info("W", T.FLOAT, [2, 3, 2, 2])],
        [h.make_tensor_value_info("Y", T.FLOAT, [None] * 4)],
    )
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)], ir_version=8)


def resolve(m):
    so = ort.SessionOptions()
    so.add_session_config_entry("session.strict_shape_type_inference", "1")
    try:
        ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - onnxruntime's refusal is the answer
        return str(exc).splitlines()[0]
    return "a session"


def infer(m):
    try:
        out = SymbolicShapeInference.infer_shapes(m)
    except Exception as exc:  # noqa: BLE001 - the raise is what is reported
        return f"raises {type(exc).__name__}: {exc}"
    return "infers Y " + str([d.dim_value or d.dim_param for d in out.graph.output[0].type.tensor_type.shape.dim])


print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
static, symbolic = model([1, 5, 6, 3]), model([1, "H", "W", 3])
print("onnxruntime's strict resolution of the static model:", resolve(static))
a, b = infer(static), infer(symbolic)
print("X [1, 5, 6, 3]:", a)
print("X [1, H, W, 3]:", b)
sys.exit(1 if a.startswith("raises") and b.startswith("infers") else 0)
