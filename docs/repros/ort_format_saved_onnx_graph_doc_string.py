"""onnxruntime's ONNX save of a model it loaded from the ORT format drops the main graph's doc_string, which the ORT
format holds and the session itself reports.

The ORT format's ``Model`` table has a ``graph_doc_string`` field (``core/flatbuffers/schema/ort.fbs``; the Python
bindings onnxruntime ships, ``tools/ort_format_model/ort_flatbuffers_py/fbs/Model.py``: ``GraphDocString``), and
onnxruntime writes it: the ``.ort`` bytes hold the string, and the session given them reports it
(``get_modelmeta().graph_description``). A session given those bytes (``session.load_model_format = ORT``) with
``optimized_model_filepath`` ending in ``.onnx`` writes the model with the model's doc_string but the graph's
doc_string empty, while the same model loaded from ONNX and saved the same way keeps it. IR.md §Graphs: a graph's
doc_string is part of the graph. Exits 1 while the save from the ORT format loses it, 0 once it keeps it.
"""

import os
import sys
import tempfile

import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h

g = h.make_graph(
    [h.make_node("Relu", ["x"], ["y"])],
    "main",
    [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 3])],
    doc_string="the main graph's doc_string",
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)], ir_version=8, doc_string="the model's doc_string")

with tempfile.TemporaryDirectory() as d:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.optimized_model_filepath = os.path.join(d, "m.ort")
    so.add_session_config_entry("session.save_model_format", "ORT")
    ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    data = open(so.optimized_model_filepath, "rb").read()

    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.add_session_config_entry("session.load_model_format", "ORT")
    so.optimized_model_filepath = os.path.join(d, "from_ort.onnx")
    session = ort.InferenceSession(data, so, providers=["CPUExecutionProvider"])
    saved = onnx.load(so.optimized_model_filepath)

    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.optimized_model_filepath = os.path.join(d, "from_onnx.onnx")
    ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    plain = onnx.load(so.optimized_model_filepath)

print(f"the .ort bytes hold it: {g.doc_string.encode() in data}")
print(f"the .ort session reports graph_description {session.get_modelmeta().graph_description!r}")
print(f"saved from ONNX: graph doc_string {plain.graph.doc_string!r}")
print(f"saved from ORT format: model doc_string {saved.doc_string!r}, graph doc_string {saved.graph.doc_string!r}")
sys.exit(0 if saved.graph.doc_string == g.doc_string else 1)
