"""onnxslim 0.1.98 slim() fails with RecursionError on any valid model that has a model-local function and a node
with a subgraph (an If) in its main graph: the function call need not be inside the If. Its vendored
onnx_graphsurgeon toposort (`ir/graph.py`, `get_used_funcs`) walks `self.subgraphs()` (the outer graph's, on
every call) instead of the subgraphs of the nodes it was given, so it recurses into the same If branches forever.
The same model without the function, or without the If, slims. Exit 1 while the bug is present."""

import sys

import onnx
import onnxslim
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


for with_if, with_function in [(False, True), (True, False)]:  # controls: either alone slims
    onnxslim.slim(model(with_if, with_function))
m = model(True, True)
onnx.checker.check_model(m, full_check=True)  # the input is valid
try:
    onnxslim.slim(m)
except RecursionError as exc:
    print("BUG: RecursionError:", exc)
    sys.exit(1)
print("ok")
