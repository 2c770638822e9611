"""onnxoptimizer 0.4.2 optimize(): eliminate_if_with_const_cond inlines the taken branch of an If whose condition is a
constant; a branch node reading an outer initializer (`c`) keeps its own handle on that value, so when
eliminate_duplicate_initializer (later in the default list) finds `c` equal to an earlier initializer (`d`) and
replaces its uses, the inlined node is not among them: `c` is removed and the node still reads it ("Nodes in a graph
must be topologically sorted, however input 'c' … is not output of any previous nodes"). Each pass alone is right,
and so is the same node written in the main graph. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxoptimizer
from onnx import TensorProto, helper, numpy_helper


def branch(name):
    node = helper.make_node("Identity", ["c"], [f"c_{name}"])
    return helper.make_graph([node], name, [], [helper.make_tensor_value_info(f"c_{name}", TensorProto.FLOAT, [1])])


cond = helper.make_tensor("v", TensorProto.BOOL, [1], [True])
graph = helper.make_graph(
    [
        helper.make_node("Constant", [], ["cond"], value=cond),
        helper.make_node("If", ["cond"], ["k"], then_branch=branch("then"), else_branch=branch("else")),
        helper.make_node("Add", ["x", "k"], ["t"]),
        helper.make_node("Mul", ["t", "d"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    [numpy_helper.from_array(np.array([2.0], np.float32), n) for n in ("d", "c")],  # equal values, `d` first
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxoptimizer.optimize(model)
print([n.op_type for n in out.graph.node], [t.name for t in out.graph.initializer])
try:
    onnx.checker.check_model(out, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG:", str(exc).strip().splitlines()[0])
    sys.exit(1)
print("ok")
