"""onnxconverter-common's graph optimizer folds a graph output into an initializer, then prunes that initializer.

``y = Add(x, a)`` and a second graph output ``z = Mul(a, b)``, ``a``, ``b`` float ``[3]`` initializers, opset 17; and
the same in an If branch (``else``: ``two = Constant(2.0)``, the branch's output). ``const_folding_optimizer``
(onnxconverter-common 1.16.0) evaluates ``Mul(a, b)`` / the Constant, drops the node and adds its value as an
initializer, then ``_remove_unused_initializers`` keeps only the initializers a node reads (or a subgraph reads
from outer scope): a graph output is neither, so its value is dropped too and the graph output names nothing
(IR.md §Graphs: each graph output is a node output, a graph input or an initializer). The checker rejects the result
("Graph output 'z' is not an output of any node in graph").

Needs onnx, onnxconverter-common, numpy. Exits 1 while ``z = Mul(x, b)`` (not foldable) optimizes to a valid model
and a folded output leaves an invalid one.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

A = numpy_helper.from_array(np.ones(3, np.float32), "a")
B = numpy_helper.from_array(np.full(3, 2.0, np.float32), "b")
COND = numpy_helper.from_array(np.array(True), "t")
VI = helper.make_tensor_value_info


def model(z_inputs):
    nodes = [helper.make_node("Add", ["x", "a"], ["y"]), helper.make_node("Mul", z_inputs, ["z"])]
    graph = helper.make_graph(
        nodes, "g", [VI("x", TensorProto.FLOAT, [3])], [VI(n, TensorProto.FLOAT, [3]) for n in "yz"], [A, B]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def branch_model():
    two = helper.make_tensor("two_value", TensorProto.FLOAT, [], [2.0])
    then = helper.make_graph([helper.make_node("Neg", ["x"], ["n"])], "then", [], [VI("n", TensorProto.FLOAT, None)])
    other = helper.make_graph(
        [helper.make_node("Constant", [], ["two"], value=two)], "else", [], [VI("two", TensorProto.FLOAT, [])]
    )
    nodes = [
        helper.make_node("If", ["t"], ["s"], then_branch=then, else_branch=other),
        helper.make_node("Mul", ["x", "s"], ["y"]),
    ]
    graph = helper.make_graph(nodes, "g", [VI("x", TensorProto.FLOAT, [3])], [VI("y", TensorProto.FLOAT, [3])], [COND])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def error(m):
    onnx.checker.check_model(m, full_check=True)  # the given model is valid
    try:
        onnx.checker.check_model(optimize_onnx_model(m), full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


errors = {
    "z = Mul(x, b)": error(model(["x", "b"])),
    "z = Mul(a, b)": error(model(["a", "b"])),
    "If branch returning a Constant": error(branch_model()),
}
for k, e in errors.items():
    print(f"{k}: {e or 'valid'}")
sys.exit(1 if errors["z = Mul(x, b)"] is None and errors["z = Mul(a, b)"] else 0)
