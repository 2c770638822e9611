"""onnx-tool's save_model drops every dim that has neither dim_value nor dim_param: the value's rank falls by one.

x: float[?, 3] (a Dimension with neither field: an unknown size, IR.md §Static tensor shapes), y = Relu(x): [?, 3].
onnx_tool.model_reorder_nodes (any operation followed by Graph.save_model writes the same) reads the shape with
``tensor.shape_of_tensor``, which appends a size only for dim_value or dim_param, and writes x and y as float[3]:
the graph input now declares rank 1 for a rank-2 feed, and onnxruntime refuses the feed it ran before. Exits 1
while the saved model's x or y has another rank than 2.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import onnx
import onnx_tool
from onnx import TensorProto, helper

vi = helper.make_tensor_value_info
g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"])],
    "g",
    [vi("x", TensorProto.FLOAT, [None, 3])],
    [vi("y", TensorProto.FLOAT, [None, 3])],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
    warnings.simplefilter("ignore")
    out = Path(d) / "out.onnx"
    onnx_tool.model_reorder_nodes(m, str(out))
    saved = onnx.load(str(out))
ranks = {v.name: len(v.type.tensor_type.shape.dim) for v in (*saved.graph.input, *saved.graph.output)}
print(f"ranks after onnx-tool's save_model (given 2 for both): {ranks}")
sys.exit(1 if ranks != {"x": 2, "y": 2} else 0)
