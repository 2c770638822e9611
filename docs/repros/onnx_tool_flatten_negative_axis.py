"""onnx-tool's shape inference gives Flatten with a negative axis a wrong shape.

Operators.md, Flatten-13: "Negative value means counting dimensions from the back", the output is [d_0 * ... *
d_(axis-1), d_axis * ... * d_(n-1)]. x: float[2, 3, 4], y = Flatten(x, axis=-1) is [6, 4]. ``FlattenNode``
annotates y [1, 24] (the axis taken as 0). Exits 1 while the annotation is not [6, 4].
"""

import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnx_tool
import onnxruntime as ort
from onnx import TensorProto, helper

vi = helper.make_tensor_value_info
g = helper.make_graph(
    [helper.make_node("Flatten", ["x"], ["f"], axis=-1), helper.make_node("Relu", ["f"], ["y"])],
    "g",
    [vi("x", TensorProto.FLOAT, [2, 3, 4])],
    [vi("y", TensorProto.FLOAT, None)],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
x = np.zeros((2, 3, 4), np.float32)
ran = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0].shape
with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
    warnings.simplefilter("ignore")
    tool = onnx_tool.Model(m)
    tool.graph.shape_infer({"x": x})
    tool.save_model(str(Path(d) / "out.onnx"))
    saved = onnx.load(str(Path(d) / "out.onnx"))
f = next(v for v in saved.graph.value_info if v.name == "f")
dims = [d.dim_value for d in f.type.tensor_type.shape.dim]
print(f"Flatten(axis=-1) of [2, 3, 4]: onnx-tool annotates {dims}, onnxruntime produces {list(ran)}")
sys.exit(1 if dims != [6, 4] else 0)
