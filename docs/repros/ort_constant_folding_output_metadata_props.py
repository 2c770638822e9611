"""onnxruntime's graph optimizer at ORT_ENABLE_BASIC (ConstantFolding) on `y = Add(a, b)`, `a`, `b` initializers,
the graph output `y: float[2]` carrying `metadata_props` {k: 1} (IR.md §ValueInfo, IR 10). The optimized model
onnxruntime saves (`SessionOptions.optimized_model_filepath`) writes the folded output without them; at
ORT_DISABLE_ALL, and at ORT_ENABLE_BASIC when `b` is a graph input (nothing folded), the output keeps them. Exit 1
while the folded output loses them."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
y.metadata_props.add(key="k", value="1")
g = helper.make_graph(
    [helper.make_node("Add", ["a", "b"], ["y"])],
    "g",
    [],
    [y],
    [numpy_helper.from_array(np.ones(2, np.float32), "a"), numpy_helper.from_array(np.ones(2, np.float32), "b")],
)
model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
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
        out[name] = ({p.key: p.value for p in saved.graph.output[0].metadata_props}, len(saved.graph.node))
print(ort.__version__, out)
if out["basic"][0] != {"k": "1"}:
    print("BUG: the folded graph output's metadata_props are dropped at ORT_ENABLE_BASIC")
    sys.exit(1)
print("ok")
