"""onnxconverter-common's graph optimizer never folds a node that reads a Constant node.

``y = Add(x, Mul(k, b))``, ``k`` and ``b`` float ``[3]`` constants, opset 17, with ``k`` an initializer or a
``Constant`` node (IR.md §Graphs: the same value). ``const_folding_optimizer`` (onnxconverter-common 1.16.0) folds a
node when every input's status (``_dfs_calc``) is non-negative; for a Constant it evaluates the value
(``node_status[name] = 0``) but returns ``status = -1``, the status of a graph input, on that first visit; the
Mul then counts as reading a run-time value and is kept. The Constant becomes an initializer and the Mul reads it,
so the same model optimized twice folds it: the first pass misses a fold its own rule (every input constant, Mul
has ``_OnMul``) makes.

Needs onnx, onnxconverter-common, numpy. Exits 1 while the initializer spelling folds the Mul and the Constant one
keeps it.
"""

import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

VI = helper.make_tensor_value_info
K = numpy_helper.from_array(np.array([1.0, 2.0, 3.0], np.float32), "k")
B = numpy_helper.from_array(np.full(3, 2.0, np.float32), "b")


def model(constant_node):
    nodes = [helper.make_node("Mul", ["k", "b"], ["m"]), helper.make_node("Add", ["x", "m"], ["y"])]
    if constant_node:
        nodes.insert(0, helper.make_node("Constant", [], ["k"], value=K))
    graph = helper.make_graph(
        nodes,
        "g",
        [VI("x", TensorProto.FLOAT, [3])],
        [VI("y", TensorProto.FLOAT, [3])],
        [B] if constant_node else [K, B],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


kept = {}
for label, constant_node in (("k an initializer", False), ("k a Constant node", True)):
    ops = [n.op_type for n in optimize_onnx_model(model(constant_node)).graph.node]
    kept[label] = "Mul" in ops
    print(f"{label}: nodes after {ops}")
sys.exit(1 if not kept["k an initializer"] and kept["k a Constant node"] else 0)
