"""onnx 1.23.2 `onnx.utils.extract_model` (`Extractor.extract_model`) asked for the whole model — its graph inputs
and outputs — on `y = Neg(Relu(x))` whose model states a doc_string, metadata_props, a model_version and a domain
(IR.md §Models) and whose graph states a doc_string (IR.md §Graphs). The model it writes is built from the graph and
the opset imports alone: every one of these is gone (the interface's descriptions are kept). Exit 1 while any is
dropped."""

import os
import sys
import tempfile

import onnx
import onnx.utils
from onnx import TensorProto, helper

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
nodes = [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])]
g = helper.make_graph(nodes, "g", [x], [y], doc_string="what the graph computes")
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
m.doc_string, m.model_version, m.domain = "what the model is for", 7, "org.example"
helper.set_model_props(m, {"author": "a"})
onnx.checker.check_model(m, full_check=True)
with tempfile.TemporaryDirectory() as d:
    src, dst = os.path.join(d, "m.onnx"), os.path.join(d, "e.onnx")
    onnx.save(m, src)
    onnx.utils.extract_model(src, dst, ["x"], ["y"])
    out = onnx.load(dst)
want = ("what the model is for", {"author": "a"}, 7, "org.example", "what the graph computes")
got = (out.doc_string, {p.key: p.value for p in out.metadata_props}, out.model_version, out.domain, out.graph.doc_string)
print(onnx.__version__, "(doc_string, metadata_props, model_version, domain, graph doc_string):", got)
if got != want:
    print("BUG: extract_model dropped what the model says of itself")
    sys.exit(1)
print("ok")
