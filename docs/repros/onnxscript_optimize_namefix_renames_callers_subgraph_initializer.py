"""onnxscript 0.7.2 `onnxscript.optimizer.optimize(m)` on a ModelProto changes the caller's `m`: an If whose branches
return an initializer named like the If's own output (`y`; the checker accepts it: IR.md forbids shadowing of outer
names *visible* in the subgraph, and the If's output is not yet defined there). optimize() deserializes `m` with
`ir.serde.deserialize_model`, which wraps each TensorProto without copying, and its last pass, onnx_ir's NameFixPass
("all values in subgraphs have unique names within their graph and parent graphs"), renames the branch values
`y_1` / `y_2`; the rename is written through to the caller's TensorProtos, while the branches' outputs still name `y`.
The returned model is fine; the caller's own `m` no longer passes the checker. optimize()'s docstring: "If the input
was a ModelProto, the output will also be a ModelProto" (a new one is returned). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxscript.optimizer
from onnx import TensorProto, helper, numpy_helper


def branch(name, values):
    return helper.make_graph(
        [],
        name,
        [],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
        initializer=[numpy_helper.from_array(np.array(values, np.float32), "y")],
    )


node = helper.make_node("If", ["cond"], ["y"], then_branch=branch("then", [1, 2, 3]), else_branch=branch("else", [4, 5, 6]))
graph = helper.make_graph(
    [node],
    "g",
    [helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
onnx.checker.check_model(model, full_check=True)  # the input is valid
before = model.SerializeToString()
optimized = onnxscript.optimizer.optimize(model)
onnx.checker.check_model(optimized, full_check=True)  # the returned model is valid
names = [t.name for b in model.graph.node[0].attribute for t in b.g.initializer]
print("caller's branch initializers after optimize:", names)
try:
    onnx.checker.check_model(model, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG: the caller's model changed and is now invalid:", str(exc).strip().splitlines()[0][:200])
    sys.exit(1)
if model.SerializeToString() != before:
    print("BUG: the caller's model changed")
    sys.exit(1)
print("ok")
