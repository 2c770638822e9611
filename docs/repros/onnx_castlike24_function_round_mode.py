"""onnx's CastLike-24 / CastLike-25 schema builds its function body (a context-dependent function,
onnx/defs/tensor/defs.cc) as `Cast<to=<target type>, saturate=@saturate>(input)`: `round_mode` is not forwarded, so
the body computes round_mode "up" (Cast's default) whatever the node says. Operators.md CastLike-24: `round_mode`
("up", "down", "nearest") decides the power of two a float8e8m0 result is. onnxruntime expands CastLike through that
body (its saved graph shows `Cast<round_mode="up">`), so `CastLike(x, t, round_mode="down")` with `t` float8e8m0
gives 4 for 3 where `Cast(x, to=FLOAT8E8M0, round_mode="down")` gives 2. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper


def model(node, inits):
    graph = helper.make_graph(
        [node, helper.make_node("Cast", ["c"], ["y"], to=TensorProto.FLOAT)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
        inits,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 24)], ir_version=11)
    onnx.checker.check_model(m, full_check=True)  # the input is valid
    return m


def run(m, feeds):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


like = model(
    helper.make_node("CastLike", ["x", "t"], ["c"], round_mode="down"),
    [helper.make_tensor("t", TensorProto.FLOAT8E8M0, [1], [1.0])],
)
cast = model(helper.make_node("Cast", ["x"], ["c"], to=TensorProto.FLOAT8E8M0, round_mode="down"), [])
schema = onnx.defs.get_schema("CastLike", 24)
node = helper.make_node("CastLike", ["x", "t"], ["c"], round_mode="down")
types = [helper.make_tensor_type_proto(e, [3]).SerializeToString() for e in (TensorProto.FLOAT, TensorProto.FLOAT8E8M0)]
body = onnx.FunctionProto.FromString(schema.get_context_dependent_function(node.SerializeToString(), types))
print("CastLike-24 body:", [(n.op_type, [a.name for a in n.attribute]) for n in body.node])
feeds = {"x": np.array([3.0, 5.0, 100.0], np.float32)}
want, got = run(cast, feeds), run(like, feeds)  # round_mode "down": [2, 4, 64]
print("Cast(round_mode=down):", want, "CastLike(round_mode=down):", got)
sys.exit(0 if np.array_equal(want, got) else 1)
