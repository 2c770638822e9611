"""onnxruntime's graph optimizer on `y = Mul(Identity(x), c)`, the graph input `x` and output `y` (float[2]) each
carrying a doc_string (IR.md §Graphs, ValueInfoProto) and a `metadata_props` entry (IR.md §ValueInfo, IR 10). At
ORT_ENABLE_BASIC the Identity is removed, and the optimized model onnxruntime saves
(`SessionOptions.optimized_model_filepath`) writes `x` and `y` with neither: the graph, once changed, is written back
from its NodeArgs, which hold a name and a type only. At ORT_DISABLE_ALL (nothing changed) both keep them. Neither
value is touched by the change. Exit 1 while the kept input and output lose them."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def described(name):
    v = helper.make_tensor_value_info(name, TensorProto.FLOAT, [2])
    v.doc_string = f"documented {name}"
    v.metadata_props.add(key="k", value=name)
    return v


g = helper.make_graph(
    [helper.make_node("Identity", ["x"], ["t"]), helper.make_node("Mul", ["t", "c"], ["y"])],
    "g",
    [described("x")],
    [described("y")],
    [numpy_helper.from_array(np.full(2, 3, np.float32), "c")],
)
model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
onnx.checker.check_model(model, full_check=True)


def interface(level):
    """The optimized model onnxruntime saves at ``level``: its node types, and each input's and output's fields."""
    with tempfile.TemporaryDirectory() as d:
        opts = ort.SessionOptions()
        opts.graph_optimization_level, opts.optimized_model_filepath = level, os.path.join(d, "saved.onnx")
        ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
        graph = onnx.load(opts.optimized_model_filepath).graph
    fields = {v.name: (v.doc_string, {p.key: p.value for p in v.metadata_props}) for v in (*graph.input, *graph.output)}
    return {"nodes": [n.op_type for n in graph.node], **fields}


levels = ort.GraphOptimizationLevel
out = {"disabled": interface(levels.ORT_DISABLE_ALL), "basic": interface(levels.ORT_ENABLE_BASIC)}
print(ort.__version__, out)
want = {"x": ("documented x", {"k": "x"}), "y": ("documented y", {"k": "y"})}
if any(out["basic"][k] != v for k, v in want.items()):
    print("BUG: the graph input's and output's doc_string and metadata_props are dropped at ORT_ENABLE_BASIC")
    sys.exit(1)
print("ok")
