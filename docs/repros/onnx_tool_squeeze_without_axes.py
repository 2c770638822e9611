"""onnx-tool's Squeeze without axes removes axis 0 whatever its size, instead of every axis of size 1.

Operators.md, Squeeze-13: "If axes is not provided, all the single dimensions will be removed from the shape."
x: float[1, 3, 1, 4], y = Squeeze(x) is [3, 4]; x: float[8], Squeeze(x) is [8]. ``SqueezeNode`` defaults its axes
to [0]: Graph.shape_infer annotates [3, 1, 4] and [] (a rank-0 value for 8 elements); the same default in its
``value_infer`` is what its constant folding evaluates. Exits 1 while either annotation is wrong.
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
for shape, want in (([1, 3, 1, 4], [3, 4]), ([8], [8])):
    g = helper.make_graph(
        [helper.make_node("Squeeze", ["x"], ["s"]), helper.make_node("Neg", ["s"], ["y"])],
        "g",
        [vi("x", TensorProto.FLOAT, shape)],
        [vi("y", TensorProto.FLOAT, want)],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tool = onnx_tool.Model(m)
        tool.graph.shape_infer({"x": np.zeros(shape, np.float32)})
        tool.save_model(str(Path(d) / "out.onnx"))
        saved = onnx.load(str(Path(d) / "out.onnx"))
    s = next(v for v in saved.graph.value_info if v.name == "s")
    got[str(shape)] = ([d.dim_value for d in s.type.tensor_type.shape.dim], want)
for k, (dims, want) in got.items():
    print(f"Squeeze(x: {k}) without axes: onnx-tool annotates {dims}, the spec gives {want}")
sys.exit(1 if any(dims != want for dims, want in got.values()) else 0)
