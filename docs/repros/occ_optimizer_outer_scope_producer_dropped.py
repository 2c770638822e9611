"""onnxconverter-common's graph optimizer ignores a subgraph's outer-scope reads: their producer is dropped or
placed after the If.

``r = Relu(x)``, ``y = If(t, then: Identity(r), else: Identity(x))``, ``x: float[3]``, opset 17: the then-branch reads
``r`` from the outer scope (IR.md §Graphs, "Names Within a Graph": a subgraph may reference names of the enclosing
graphs). ``const_folding_optimizer`` (onnxconverter-common 1.16.0) keeps only the nodes it reaches walking
``node.input`` back from the graph outputs (``_dfs_calc``) and sorts them by that walk's depth; the If's
outer-scope reads are not inputs of the If node, so the Relu is deleted when only the branch reads it, and sorted
after the If when the Add reads it too (depth 2 against the If's 1): either way the branch reads a name not yet
defined (the checker: "input 'r' of node … is not output of any previous nodes").

Needs onnx, onnxconverter-common, numpy. Exits 1 while a branch reading the graph input ``x`` from the outer scope
optimizes to a valid model and one reading the node output ``r`` does not.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

VI = helper.make_tensor_value_info
COND = numpy_helper.from_array(np.array(True), "t")


def model(main_reads_r, branch_reads="r"):
    then = helper.make_graph(
        [helper.make_node("Identity", [branch_reads], ["o"])], "then", [], [VI("o", TensorProto.FLOAT, [3])]
    )
    other = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["p"])], "else", [], [VI("p", TensorProto.FLOAT, [3])]
    )
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("If", ["t"], ["s"], then_branch=then, else_branch=other),
        helper.make_node("Add", ["s", "r"] if main_reads_r else ["s", "x"], ["y"]),
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
    "the branch reads x, the Add reads r": error(model(True, "x")),
    "the branch and the Add read r": error(model(True)),
    "only the branch reads r": error(model(False)),
}
for k, e in errors.items():
    print(f"{k}: {e or 'valid'}")
common = errors["the branch reads x, the Add reads r"]
sys.exit(1 if common is None and (errors["the branch and the Add read r"] or errors["only the branch reads r"]) else 0)
