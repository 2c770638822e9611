"""onnxruntime's symbolic shape inference (``onnxruntime/tools/symbolic_shape_infer.py``, ``_compute_conv_pool_shape``
with ``channels_last=True``, the NhwcConv handler) writes the output channel count ``W[0]`` at axis 3 of the input
shape, the channel axis of a 4-D NHWC tensor only. onnxruntime's own NhwcConv schema (com.microsoft, its type and
shape inference ``convPoolShapeInferenceNhwc``) takes any number of spatial axes, channels last, as Conv does; a
session refuses these models only because no CPU kernel exists. With one spatial axis (``X: [1, L, 3]``) axis 3 does
not exist: "IndexError: list assignment index out of range". With three (``X: [1, D, H, W, 3]``, ``W: [2, 3, ...]``)
the output keeps the input's 3 channels at its last axis and loses a spatial dim; onnxruntime's strict graph
resolution (``session.strict_shape_type_inference``) of the tool's output refuses it ("Inferred=2 Declared=3"),
while the tool's input is refused only for the missing kernel. Exits 1 while either happens."""

import sys

import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference


def model(x, w):
    node = h.make_node("NhwcConv", ["X", "W"], ["Y"], domain="com.microsoft")
    g = h.make_graph(
        [node],
        "g",
        [h.make_tensor_value_info("X", T.FLOAT, x), h.make_tensor_value_info("W", T.FLOAT, w)],
        [h.make_tensor_value_info("Y", T.FLOAT, None)],
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


def only_kernel_missing(text):
    return "Could not find an implementation for NhwcConv" in text


print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
bad = False
for x, w in (([1, "L", 3], [2, 3, 2]), ([1, "D", "H", "W", 3], [2, 3, 2, 3, 4])):
    m = model(x, w)
    before = resolve(m)
    print(f"X {x}, W {w}: onnxruntime's strict resolution of the model: {before}")
    if not only_kernel_missing(before):
        continue  # not the model this script is about
    try:
        out = SymbolicShapeInference.infer_shapes(m)
    except Exception as exc:  # noqa: BLE001 - the raise is what is reported
        print(f"  symbolic shape inference raises {type(exc).__name__}: {exc}")
        bad = True
        continue
    y = [d.dim_value or d.dim_param for d in out.graph.output[0].type.tensor_type.shape.dim]
    after = resolve(out)
    print(f"  symbolic shape inference gives Y {y}; strict resolution of its output: {after}")
    bad |= not only_kernel_missing(after) or y[-1] != w[0]
sys.exit(1 if bad else 0)
