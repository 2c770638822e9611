"""onnxruntime's symbolic shape inference (``onnxruntime/tools/symbolic_shape_infer.py``,
``_infer_PackedMultiHeadAttention``) raises "TypeError: can't multiply sequence by non-int of type 'str'" on a
com.microsoft PackedMultiHeadAttention whose packed query ``(token_count, num_heads, 3, head_size)`` (onnxruntime's
schema: "or packed qkv with shape (token_count, num_heads, 3, head_size)") has a symbolic ``num_heads`` or
``head_size`` dim: the handler multiplies the raw dims ``shape[1] * shape[3]`` (a Python str for a ``dim_param``)
instead of their symbolic values. With both symbolic (``[T, N, 3, S]``) it raises; with ``num_heads`` 2 and
``head_size`` ``S`` it writes the output dim ``"SS"`` (Python's string repetition ``2 * "S"``), a new symbol, not
``2*S``. onnxruntime's strict graph resolution refuses the models only for the missing CPU kernel; with both dims
static (``[T, 2, 3, 4]``) the output is ``[T, 8]``. Exits 1 while either happens."""

import sys

import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference


def model(query):
    inputs = ["query", "", "", "", "token_offset", "cumulative_sequence_length"]
    node = h.make_node("PackedMultiHeadAttention", inputs, ["output"], domain="com.microsoft", num_heads=2)
    g = h.make_graph(
        [node],
        "g",
        [
            h.make_tensor_value_info("query", T.FLOAT, query),
            h.make_tensor_value_info("token_offset", T.INT32, [1, 4]),
            h.make_tensor_value_info("cumulative_sequence_length", T.INT32, [2]),
        ],
        [h.make_tensor_value_info("output", T.FLOAT, [None, None])],
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
    return "infers output " + str([d.dim_value or d.dim_param for d in out.graph.output[0].type.tensor_type.shape.dim])


print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
both, one, static = model(["T", "N", 3, "S"]), model(["T", 2, 3, "S"]), model(["T", 2, 3, 4])
print("onnxruntime's strict resolution of [T, N, 3, S]:", resolve(both))
print("onnxruntime's strict resolution of [T, 2, 3, S]:", resolve(one))
a, b, c = infer(both), infer(one), infer(static)
print("query [T, N, 3, S]:", a)
print("query [T, 2, 3, S]:", b)
print("query [T, 2, 3, 4]:", c)
sys.exit(1 if c.startswith("infers") and (a.startswith("raises") or b.endswith("'SS']")) else 0)
