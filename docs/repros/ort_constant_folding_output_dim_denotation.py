"""onnxruntime's graph optimizer at ORT_ENABLE_BASIC (ConstantFolding) on `y = Add(a, b)`, `a`, `b` initializers,
the graph output `y: float[2]` declared with the dimension denotation `DATA_FEATURE` (IR.md §Type Denotation,
DimensionDenotation.md) and the type denotation `TENSOR`. The optimized model onnxruntime saves
(`SessionOptions.optimized_model_filepath`) keeps the type denotation but writes the folded output's dim without its
denotation; at ORT_DISABLE_ALL the dim keeps it. Exit 1 while the folded output loses it."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
y.type.denotation = "TENSOR"
y.type.tensor_type.shape.dim[0].denotation = "DATA_FEATURE"
g = helper.make_graph(
    [helper.make_node("Add", ["a", "b"], ["y"])],
    "g",
    [],
    [y],
    [numpy_helper.from_array(np.ones(2, np.float32), "a"), numpy_helper.from_array(np.ones(2, np.float32), "b")],
)
model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)

out = {}
with tempfile.TemporaryDirectory() as d:
    for name, level in (
        ("disabled", ort.GraphOptimizationLevel.ORT_DISABLE_ALL),
        ("basic", ort.GraphOptimizationLevel.ORT_ENABLE_BASIC),
    ):
        so = ort.SessionOptions()
        so.graph_optimization_level = level
        so.optimized_model_filepath = os.path.join(d, f"{name}.onnx")
        ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        saved = onnx.load(so.optimized_model_filepath)
        t = saved.graph.output[0].type
        out[name] = (t.denotation, [dim.denotation for dim in t.tensor_type.shape.dim], len(saved.graph.node))
print(ort.__version__, out)
if out["basic"][1] != ["DATA_FEATURE"]:
    print("BUG: the folded output's dim denotation is dropped at ORT_ENABLE_BASIC")
    sys.exit(1)
print("ok")
