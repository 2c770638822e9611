"""onnxslim.slim(m) renames an initializer inside the caller's ModelProto, leaving it invalid.

y = If(c){GatherND(data, indices)}{GatherND(data, indices)}, `indices` a main-graph initializer read
by both branches (an outer-scope value, IR.md §Graphs), opset 11. After slim(m) the caller's own `m`
holds the initializer as 'indices_subg_0_then' while its branch nodes still read 'indices': `m` fails
the checker. (slim's returned model is fine.) Exits 1 while the caller's model is changed.
"""

import sys

import numpy as np
import onnx
import onnxslim
from onnx import TensorProto, helper, numpy_helper

f = helper.make_tensor_value_info
branch = lambda n: helper.make_graph(
    [helper.make_node("GatherND", ["data", "indices"], [n])],
    n,
    [],  # noqa: E731
    [f(n, TensorProto.FLOAT, [2, 4])],
)
g = helper.make_graph(
    [helper.make_node("If", ["c"], ["y"], then_branch=branch("a"), else_branch=branch("b"))],
    "g",
    [f("data", TensorProto.FLOAT, [2, 3, 4])],
    [f("y", TensorProto.FLOAT, [2, 4])],
    [
        numpy_helper.from_array(np.array([[0, 1], [1, 2]], np.int64), "indices"),
        numpy_helper.from_array(np.array(True), "c"),
    ],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)], ir_version=6)
onnx.checker.check_model(m, full_check=True)
before = m.SerializeToString()
out = onnxslim.slim(m)
onnx.checker.check_model(out, full_check=True)
changed = m.SerializeToString() != before
print("initializers of the caller's model after slim:", [t.name for t in m.graph.initializer])
try:
    onnx.checker.check_model(m, full_check=True)
    print("caller's model still valid; changed:", changed)
except Exception as e:  # the finding
    print("caller's model now INVALID:", str(e).splitlines()[0][:120])
sys.exit(1 if changed else 0)
