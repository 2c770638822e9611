"""onnx-graphsurgeon 0.6.1's `Graph.toposort()` fails with RecursionError on any valid model that has a model-local
function and a node with a subgraph (an If) in its main graph; `fold_constants()` after it, the sequence gs's docstring
asks for, never runs.

`onnx_graphsurgeon/ir/graph.py`, `toposort` → `get_hierarchy_level` → `get_used_funcs(nodes)`: it walks
`self.subgraphs()` (the whole graph's If branches, on every call) instead of the subgraphs of the nodes it was given,
so it enters the same branches forever. toposort's defaults (`recurse_functions=True`) reach it. onnxslim vendors the
same code (docs/found.md row 93); this is the original package. The same model without the function, or without the
If, sorts. Exits 1 while the bug is present, 0 once toposort returns.
"""

import sys

import onnx
import onnx_graphsurgeon as gs
from onnx import TensorProto, helper

LOCAL = "local"
neg = helper.make_function(
    LOCAL, "Neg_fn", ["x"], ["y"], [helper.make_node("Neg", ["x"], ["y"])], [helper.make_opsetid("", 21)]
)


def branch(tag):
    out = helper.make_tensor_value_info(f"o_{tag}", TensorProto.FLOAT, [3])
    return helper.make_graph([helper.make_node("Relu", ["x"], [f"o_{tag}"])], tag, [], [out])


def model(with_if, with_function):
    nodes = (
        [helper.make_node("If", ["c"], ["r"], then_branch=branch("then"), else_branch=branch("else"))]
        if with_if
        else [helper.make_node("Relu", ["x"], ["r"])]
    )
    nodes.append(
        helper.make_node("Neg_fn", ["r"], ["y"], domain=LOCAL)
        if with_function
        else helper.make_node("Neg", ["r"], ["y"])
    )
    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid(LOCAL, 1)]
    return helper.make_model(graph, opset_imports=opsets, functions=[neg] if with_function else [])


for with_if, with_function in [(False, True), (True, False)]:  # controls: either alone sorts
    gs.import_onnx(model(with_if, with_function)).toposort()
m = model(True, True)
onnx.checker.check_model(m, full_check=True)  # the input is valid
try:
    gs.export_onnx(gs.import_onnx(m).toposort().fold_constants().cleanup())
except RecursionError as exc:
    print("BUG: Graph.toposort() raises RecursionError:", exc)
    sys.exit(1)
print("toposort, fold_constants and cleanup return")
