"""onnx-tool ignores Shape's start and end (opset 15): its shape inference writes the full rank, and its constant
folding folds the full shape.

Operators.md, Shape-15: "Optional attributes start and end can be used to compute a slice of the input tensor's
shape". w: float[2, 3, 4] (an initializer), s = Shape(w, start=1) is [3, 4]; y = x + Cast(s), x: float[2].
``ShapeNode.value_infer`` returns ``intensors[0].get_shape()`` whole: onnx_tool.model_constant_folding folds s to
[2, 3, 4] (the saved model fails to load: Add of [2] and [3]), and Graph.shape_infer on x = Shape(x, start=1) of
a [2, 3, 4] input annotates it [3]. Exits 1 while either is wrong.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnx_tool
from onnx import TensorProto, helper, numpy_helper

vi = helper.make_tensor_value_info
w = numpy_helper.from_array(np.zeros((2, 3, 4), np.float32), "w")
g = helper.make_graph(
    [
        helper.make_node("Shape", ["w"], ["s"], start=1),
        helper.make_node("Cast", ["s"], ["sf"], to=TensorProto.FLOAT),
        helper.make_node("Add", ["x", "sf"], ["y"]),
    ],
    "g",
    [vi("x", TensorProto.FLOAT, [2])],
    [vi("y", TensorProto.FLOAT, [2])],
    [w],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
g2 = helper.make_graph(
    [helper.make_node("Shape", ["x"], ["s"], start=1), helper.make_node("Identity", ["s"], ["y"])],
    "g",
    [vi("x", TensorProto.FLOAT, [2, 3, 4])],
    [vi("y", TensorProto.INT64, [2])],
)
m2 = helper.make_model(g2, opset_imports=[helper.make_opsetid("", 15)], ir_version=8)
onnx.checker.check_model(m2, full_check=True)
with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
    warnings.simplefilter("ignore")
    onnx_tool.model_constant_folding(m, str(Path(d) / "folded.onnx"))
    folded = onnx.load(str(Path(d) / "folded.onnx"))
    tool = onnx_tool.Model(m2)
    tool.graph.shape_infer({"x": np.zeros((2, 3, 4), np.float32)})
    tool.save_model(str(Path(d) / "inferred.onnx"))
    inferred = onnx.load(str(Path(d) / "inferred.onnx"))
sf = {t.name: numpy_helper.to_array(t).tolist() for t in folded.graph.initializer}.get("sf")
s = next((v for v in inferred.graph.value_info if v.name == "s"), None)
s_dims = [x.dim_value for x in s.type.tensor_type.shape.dim] if s is not None else None
print(
    f"folded Cast(Shape(w, start=1)): {sf} (expected [3.0, 4.0]); inferred Shape(x, start=1): {s_dims} (expected [2])"
)
sys.exit(1 if sf != [3.0, 4.0] or s_dims != [2] else 0)
