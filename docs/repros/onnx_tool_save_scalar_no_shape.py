"""onnx-tool's save_model writes a rank-0 tensor with no shape at all: a scalar graph output becomes one the checker
rejects ("Field 'shape' of 'type' is required but missing").

y = ReduceSum(x, keepdims=0): a float scalar, declared float[] (rank 0: a TensorShapeProto with no dim). onnx-tool's
``Tensor.make_value_proto`` sets the shape to None when the shape list is empty, so the saved y has no shape field:
its rank, 0, is lost, and onnx's checker refuses a graph output without a shape. Exits 1 while the saved y has no
shape.
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
    [helper.make_node("ReduceSum", ["x"], ["y"], keepdims=0)],
    "g",
    [vi("x", TensorProto.FLOAT, [2, 3])],
    [vi("y", TensorProto.FLOAT, [])],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
    warnings.simplefilter("ignore")
    out = Path(d) / "out.onnx"
    onnx_tool.model_reorder_nodes(m, str(out))
    saved = onnx.load(str(out))
y = saved.graph.output[0]
has = y.type.tensor_type.HasField("shape")
try:
    onnx.checker.check_model(saved, full_check=True)
    verdict = "accepted"
except onnx.checker.ValidationError as exc:
    verdict = f"rejected: {exc}"
print(f"saved y has a shape: {has} (given rank 0); checker: {verdict}")
sys.exit(1 if not has else 0)
