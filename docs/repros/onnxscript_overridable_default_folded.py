"""onnxscript's optimizer reads a graph input's default (an initializer of the same name) as a constant.

``y = Reshape(x, s)``, ``x: float[2, 3]``, ``s: int64[2]`` a graph input *and* an initializer ``[2, 3]`` (its default),
opset 18, IR 8. IR.md §Graphs: an initializer named like a graph input "specifies a default value for that input",
which a caller may override. ``onnxscript.optimizer.optimize`` keeps ``s`` a graph input, yet replaces the Reshape by
an Identity because the default equals ``x``'s shape. Fed ``s = [3, 2]`` (a valid input of the declared type and
shape), the original model computes ``y`` of shape ``(3, 2)`` and the optimized one ``(2, 3)``. With ``s`` an
initializer only (a constant) the rewrite is right. Exits 1 while the optimized model differs on that feed.
"""

import sys

import numpy as np
import onnxruntime as ort
import onnxscript
from onnx import TensorProto, helper, numpy_helper
from onnxscript import optimizer

vi = helper.make_tensor_value_info
graph = helper.make_graph(
    [helper.make_node("Reshape", ["x", "s"], ["y"])],
    "g",
    [vi("x", TensorProto.FLOAT, [2, 3]), vi("s", TensorProto.INT64, [2])],
    [vi("y", TensorProto.FLOAT, None)],
    [numpy_helper.from_array(np.array([2, 3], np.int64), "s")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
optimized = optimizer.optimize(model)
so = ort.SessionOptions()
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
feeds = {"x": np.arange(6, dtype=np.float32).reshape(2, 3), "s": np.array([3, 2], np.int64)}
shapes = [
    ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0].shape
    for m in (model, optimized)
]
print(
    "onnxscript",
    onnxscript.__version__,
    "nodes after:",
    [n.op_type for n in optimized.graph.node],
    "| inputs after:",
    [v.name for v in optimized.graph.input],
    "| y fed s = [3, 2]: original",
    shapes[0],
    "optimized",
    shapes[1],
)
sys.exit(1 if shapes[0] != shapes[1] else 0)
