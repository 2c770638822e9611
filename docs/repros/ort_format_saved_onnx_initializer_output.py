"""onnxruntime's ONNX save of a model it loaded from the ORT format declares no output for a graph that has no node
left (every output an initializer), in a subgraph as in the main graph.

A session given an ORT format model (``session.load_model_format = ORT``) with ``optimized_model_filepath`` ending
in ``.onnx`` writes the graph it loaded as an ONNX model, as it does for a model loaded from ONNX. Here an If's
then-branch is one ``Constant`` (onnxruntime makes every Constant an initializer when it loads a graph, so the branch
keeps no node). The ``.ort`` session computes the If's output from that branch; the ONNX model it saves gives the
then-branch no output at all (with the graph names of row 1208 filled in, onnxruntime refuses that save: "then_branch
and else_branch produce different number of outputs"). The same model loaded from ONNX saves the branch's output (a main graph that is one
Constant loses its output the same way). Exits 1 while the save drops the output; 0 once it declares it.
"""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h

const = h.make_tensor("k", T.FLOAT, [3], [1.0, 2.0, 3.0])
then = h.make_graph(
    [h.make_node("Constant", [], ["t"], value=const)], "then", [], [h.make_tensor_value_info("t", T.FLOAT, [3])]
)
other = h.make_graph([h.make_node("Neg", ["x"], ["e"])], "else", [], [h.make_tensor_value_info("e", T.FLOAT, [3])])
g = h.make_graph(
    [
        h.make_node("Constant", [], ["y"], value=const),
        h.make_node("Relu", ["x"], ["z"]),
        h.make_node("If", ["c"], ["w"], then_branch=then, else_branch=other),
    ],
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, [3]), h.make_tensor_value_info("c", T.BOOL, [])],
    [h.make_tensor_value_info(n, T.FLOAT, [3]) for n in ("y", "z", "w")],
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
    print(".ort session outputs:", [o.name for o in s.get_outputs()], [v.tolist() for v in s.run(None, feeds)])
    out = onnx.load(saved)
    declared = [o.name for o in out.graph.output]
    (if_node,) = [n for n in out.graph.node if n.op_type == "If"]
    branch = [len(a.g.output) for a in if_node.attribute if a.name == "then_branch"][0]
    print("the saved ONNX model declares outputs", declared, "; its then-branch", branch, "output(s)")
    out.graph.name = "g"  # the names the save leaves empty (row 1208), filled in to see what else is missing
    for a in if_node.attribute:
        a.g.name = a.name
    try:
        ort.InferenceSession(out.SerializeToString(), options(), providers=["CPUExecutionProvider"])
        print("onnxruntime loads the save (graph names filled in)")
    except Exception as exc:  # noqa: BLE001 - part of the finding
        print("onnxruntime refuses its own save (graph names filled in):", str(exc).strip().splitlines()[0][-160:])
ok = declared == [o.name for o in s.get_outputs()] and branch == 1  # loading also needs the names (row 1208)
sys.exit(0 if ok else 1)
