"""onnx-tool's shape inference ignores Resize's axes (opset 18): sizes or scales given for some axes give a wrong
shape of the wrong rank.

Operators.md, Resize-18: "axes: If provided, it specifies a subset of axes that 'roi', 'scales' and 'sizes' refer
to"; the other axes keep their size. x: float[1, 2, 3, 3], y = Resize(x, sizes=[6, 6], axes=[2, 3]) is
[1, 2, 6, 6]. ``ResizeNode.shape_infer`` never reads axes; with two sizes it computes ``xshape[:2] + sizes`` on a
numpy array, an element-wise sum: y is annotated [7, 8]. With scales=[2, 2] and the same axes it writes [2, 4].
Exits 1 while either annotation is not [1, 2, 6, 6].
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
got = {}
for name, inputs, init in (
    ("sizes", ["x", "", "", "p"], helper.make_tensor("p", TensorProto.INT64, [2], [6, 6])),
    ("scales", ["x", "", "p"], helper.make_tensor("p", TensorProto.FLOAT, [2], [2.0, 2.0])),
):
    g = helper.make_graph(
        [helper.make_node("Resize", inputs, ["r"], axes=[2, 3], mode="nearest"), helper.make_node("Neg", ["r"], ["y"])],
        "g",
        [vi("x", TensorProto.FLOAT, [1, 2, 3, 3])],
        [vi("y", TensorProto.FLOAT, [1, 2, 6, 6])],
        [init],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tool = onnx_tool.Model(m)
        tool.graph.shape_infer({"x": np.zeros((1, 2, 3, 3), np.float32)})
        tool.save_model(str(Path(d) / "out.onnx"))
        saved = onnx.load(str(Path(d) / "out.onnx"))
    r = next(v for v in saved.graph.value_info if v.name == "r")
    got[name] = [int(d.dim_value) for d in r.type.tensor_type.shape.dim]
print(f"Resize(x: [1, 2, 3, 3], axes=[2, 3]) to 6x6: onnx-tool annotates {got} (expected [1, 2, 6, 6])")
sys.exit(1 if any(v != [1, 2, 6, 6] for v in got.values()) else 0)
