"""onnx-ir 1.1.0 IdentityEliminationPass (onnx_ir/passes/common/identity_elimination.py) on a subgraph whose output is
`Identity` of a value computed in the enclosing graph: the pass keeps such an Identity only when its input is a graph
input or an initializer, so it removes it, makes the branch return the outer value directly and renames that outer
value to the branch output's name. The result is invalid (checker: "Graph output 's_then' is not an output of any node
in graph"; onnxruntime: "Subgraph output (s_then) is an outer scope value being returned directly"), and the outer
value's name changes in the main graph. The input is valid (IR.md: a subgraph may read names of the enclosing scope)
and onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx_ir
import onnx_ir.passes.common
import onnxruntime as ort
from onnx import helper, numpy_helper

T, F = onnx.TensorProto.FLOAT, onnx.TensorProto.BOOL
then = helper.make_graph(
    [helper.make_node("Identity", ["r"], ["s_then"])], "then", [], [helper.make_tensor_value_info("s_then", T, [2, 4])]
)
other = helper.make_graph(
    [helper.make_node("Neg", ["x"], ["b"])], "else", [], [helper.make_tensor_value_info("b", T, [2, 4])]
)
graph = helper.make_graph(
    [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("If", ["t"], ["y"], then_branch=then, else_branch=other),
    ],
    "g",
    [helper.make_tensor_value_info("x", T, [2, 4])],
    [helper.make_tensor_value_info("y", T, [2, 4])],
    [numpy_helper.from_array(np.array(True), "t")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]

ir_model = onnx_ir.serde.deserialize_model(model)
onnx_ir.passes.common.IdentityEliminationPass()(ir_model)
out = onnx_ir.serde.serialize_model(ir_model)
print("main graph:", [(n.op_type, list(n.output)) for n in out.graph.node])
try:
    onnx.checker.check_model(out, full_check=True)
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, str(exc).splitlines()[0])
    sys.exit(1)
print("ok" if np.array_equal(got, expected) else "BUG: values differ")
sys.exit(0 if np.array_equal(got, expected) else 1)
