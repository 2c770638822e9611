"""onnxruntime's ONNX save of a model it loaded from the ORT format writes every graph with an empty name, which
IR.md requires and onnxruntime itself then refuses in a subgraph.

The ORT format's ``Graph`` table holds no name (``core/flatbuffers/schema/ort.fbs``), so a graph loaded from it has
none; a session given the ``.ort`` bytes (``session.load_model_format = ORT``) with ``optimized_model_filepath``
ending in ``.onnx`` writes the graphs with ``name`` empty. IR.md (Graphs: "name ... required") and the checker
("Field 'name' of 'graph' is required to be non-empty") reject the main graph; onnxruntime refuses the If's
branches when it loads its own save. Exits 1 while a saved graph has no name or the save does not load; 0 once the
save names its graphs (any name).
"""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h

then = h.make_graph([h.make_node("Relu", ["x"], ["t"])], "then", [], [h.make_tensor_value_info("t", T.FLOAT, [3])])
other = h.make_graph([h.make_node("Neg", ["x"], ["e"])], "else", [], [h.make_tensor_value_info("e", T.FLOAT, [3])])
g = h.make_graph(
    [h.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)],
    "main",
    [h.make_tensor_value_info("x", T.FLOAT, [3]), h.make_tensor_value_info("c", T.BOOL, [])],
    [h.make_tensor_value_info("y", T.FLOAT, [3])],
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
print("onnx", onnx.__version__, "onnxruntime", ort.__version__)


def options() -> ort.SessionOptions:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return so


with tempfile.TemporaryDirectory() as d:
    path, saved = os.path.join(d, "m.ort"), os.path.join(d, "saved.onnx")
    so = options()
    so.optimized_model_filepath = path
    so.add_session_config_entry("session.save_model_format", "ORT")
    ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    so = options()
    so.add_session_config_entry("session.load_model_format", "ORT")
    so.optimized_model_filepath = saved
    s = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    feeds = {"x": np.array([-1.0, 0.0, 1.0], np.float32), "c": np.array(True)}
    print(".ort session runs:", [v.tolist() for v in s.run(None, feeds)])
    out = onnx.load(saved)
    names = [out.graph.name] + [a.g.name for a in out.graph.node[0].attribute if a.HasField("g")]
    print("graph names in the saved ONNX model (main, branches):", names)
    try:
        onnx.checker.check_model(out, full_check=True)
        print("the checker accepts the save")
    except Exception as exc:  # noqa: BLE001 - part of the finding
        print("the checker:", str(exc).strip().splitlines()[0][:160])
    try:
        ort.InferenceSession(saved, options(), providers=["CPUExecutionProvider"])
        loads = True
    except Exception as exc:  # noqa: BLE001 - part of the finding
        print("onnxruntime refuses its own save:", str(exc).strip().splitlines()[0][:220])
        loads = False
sys.exit(0 if all(names) and loads else 1)
