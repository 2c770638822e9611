"""onnxruntime writes an ORT format model it refuses to load back when its optimizer removed more than about a
thousand nodes: "Node index 1100 is unreasonably large relative to the number of entries (2). Invalid ORT format
model."

A session at ORT_ENABLE_BASIC (what ``convert_onnx_models_to_ort`` runs, at ``all``, too) removes the 1,100 Identity
nodes of ``y = Relu(Identity(... Identity(x)))`` and saves the graph as ORT format
(``session.save_model_format = ORT``): the graph keeps its node indices (``max_node_index`` 1,101) with two slots
filled. The session given the ``.ort`` file (``session.load_model_format = ORT``) rejects the index as a malformed
file, so any model whose optimization removes enough nodes (exported models with thousands of Identity / Constant
nodes) converts to an ORT format model that does not load. A chain of 1,000 loads. Exits 1 while the written file
does not load back or computes otherwise; 0 once it loads and gives Relu(x).
"""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h

N = 1100
nodes = [h.make_node("Identity", ["x" if i == 0 else f"i{i - 1}"], [f"i{i}"]) for i in range(N)]
nodes.append(h.make_node("Relu", [f"i{N - 1}"], ["y"]))
g = h.make_graph(
    nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [3])], [h.make_tensor_value_info("y", T.FLOAT, [3])]
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
x = np.array([-1.0, 0.0, 2.0], np.float32)
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "m.ort")
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.optimized_model_filepath = path
    so.add_session_config_entry("session.save_model_format", "ORT")
    ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    print(f"{N} Identity nodes + Relu, saved as ORT format at basic ({os.path.getsize(path)} bytes)")
    so = ort.SessionOptions()
    so.add_session_config_entry("session.load_model_format", "ORT")
    try:
        y = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    except Exception as exc:  # noqa: BLE001 - the finding
        print("the .ort file does not load:", str(exc).strip().splitlines()[0][:220])
        sys.exit(1)
print("the .ort session gives", y.tolist())
sys.exit(0 if np.array_equal(y, np.maximum(x, 0)) else 1)
