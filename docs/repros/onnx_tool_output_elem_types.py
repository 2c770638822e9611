"""onnx-tool's shape inference writes FLOAT for outputs whose element type is not float: QLinearConv's y and
MaxPool's Indices.

Operators.md: QLinearConv-10's y is of type T3, the type of y_zero_point (uint8 here); MaxPool-12's Indices is
tensor(int64). x: uint8[1, 1, 3, 3], y = QLinearConv(x, ...) then z = Identity(y); and p, i = MaxPool(v) with i
unused. ``QLinearConvNode`` (a ``ConvNode``) types y float32, and the tool's Tensor of the unused i keeps its
float32 default: the saved model annotates y, z (the graph output, declared uint8) and i FLOAT, and onnxruntime
refuses it ("Type (tensor(float)) of output arg (y) of node (QLinearConv_0) does not match expected type
(tensor(uint8))"). Exits 1 while any of the three is FLOAT.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnx_tool
from onnx import TensorProto, helper

vi = helper.make_tensor_value_info
u8 = lambda n, v: helper.make_tensor(n, TensorProto.UINT8, [], [v])  # noqa: E731
f32 = lambda n, v: helper.make_tensor(n, TensorProto.FLOAT, [], [v])  # noqa: E731
g = helper.make_graph(
    [
        helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"]),
        helper.make_node("Identity", ["y"], ["z"]),
        helper.make_node("MaxPool", ["v"], ["p", "i"], kernel_shape=[2]),
        helper.make_node("Neg", ["p"], ["q"]),
    ],
    "g",
    [vi("x", TensorProto.UINT8, [1, 1, 3, 3]), vi("v", TensorProto.FLOAT, [1, 1, 4])],
    [vi("z", TensorProto.UINT8, [1, 1, 3, 3]), vi("q", TensorProto.FLOAT, [1, 1, 3])],
    [
        f32("xs", 1.0),
        u8("xz", 0),
        helper.make_tensor("w", TensorProto.UINT8, [1, 1, 1, 1], [1]),
        f32("ws", 1.0),
        u8("wz", 0),
        f32("ys", 1.0),
        u8("yz", 0),
    ],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
    warnings.simplefilter("ignore")
    tool = onnx_tool.Model(m)
    tool.graph.shape_infer({"x": np.zeros((1, 1, 3, 3), np.uint8), "v": np.zeros((1, 1, 4), np.float32)})
    tool.save_model(str(Path(d) / "out.onnx"))
    saved = onnx.load(str(Path(d) / "out.onnx"))
types = {
    v.name: TensorProto.DataType.Name(v.type.tensor_type.elem_type)
    for v in (*saved.graph.value_info, *saved.graph.output)
    if v.name in ("y", "z", "i")
}
print(f"element types onnx-tool writes: {types} (expected y, z UINT8 and i INT64)")
sys.exit(1 if types != {"y": "UINT8", "z": "UINT8", "i": "INT64"} else 0)
