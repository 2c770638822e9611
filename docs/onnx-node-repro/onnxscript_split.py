"""onnxscript.optimizer.optimize leaves a Split whose input is a constant (Split-18 num_outputs=2 on an
initializer): the folder does not evaluate it."""

import numpy as np
import onnx
import onnxscript.optimizer
from onnx import TensorProto, helper, numpy_helper

nodes = [
    helper.make_node("Split", ["c"], ["a", "b"], num_outputs=2),
    helper.make_node("Add", ["a", "x"], ["y0"]),
    helper.make_node("Add", ["b", "x"], ["y1"]),
]
g = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", TensorProto.INT64, [1])],
    [helper.make_tensor_value_info(n, TensorProto.INT64, [1]) for n in ("y0", "y1")],
    [numpy_helper.from_array(np.array([2, 3], np.int64), "c")],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(m, full_check=True)
print([n.op_type for n in onnxscript.optimizer.optimize(m).graph.node])
