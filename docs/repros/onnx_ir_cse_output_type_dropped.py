"""onnx-ir 1.1.0 CommonSubexpressionEliminationPass (onnx_ir/passes/common/common_subexpression_elimination.py) on two
equal nodes `a = Neg(r)`, `b = Neg(r)` where `b` is also a graph output: the pass keeps one Neg, names its output `b`
(a graph output keeps its name) and drops the type the graph output `b` declared, so the result is invalid (checker:
"Field 'type' of 'value_info' is required but missing": IR.md, a graph output's ValueInfoProto has a type). The input
is valid and onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx_ir
import onnx_ir.passes.common
import onnxruntime as ort
from onnx import helper

T = onnx.TensorProto.FLOAT
graph = helper.make_graph(
    [
        helper.make_node("Neg", ["r"], ["a"]),
        helper.make_node("Neg", ["r"], ["b"]),
        helper.make_node("Add", ["a", "b"], ["s"]),
    ],
    "g",
    [helper.make_tensor_value_info("r", T, ["N", 8])],
    [helper.make_tensor_value_info("s", T, ["N", 8]), helper.make_tensor_value_info("b", T, ["N", 8])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
r = np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 8)
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"r": r})

ir_model = onnx_ir.serde.deserialize_model(model)
onnx_ir.passes.common.CommonSubexpressionEliminationPass()(ir_model)
out = onnx_ir.serde.serialize_model(ir_model)
print("nodes:", [(n.op_type, list(n.input), list(n.output)) for n in out.graph.node])
print("output b has a type:", out.graph.output[1].HasField("type"))
try:
    onnx.checker.check_model(out, full_check=True)
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"r": r})
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, str(exc).splitlines()[0])
    sys.exit(1)
same = all(np.array_equal(g, e) for g, e in zip(got, expected))
print("ok" if same else "BUG: values differ")
sys.exit(0 if same else 1)
