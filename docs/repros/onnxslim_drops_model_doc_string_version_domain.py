"""onnxslim 0.1.98 `onnxslim.slim` on `y = Neg(Relu(x))` whose model states a doc_string, a model_version and a
domain and whose main graph states a doc_string (IR.md §Models: the model's documentation, the version of the graph
it encodes and its namespace; §Graphs: the graph's documentation). Nothing is folded or fused; the model it writes
keeps the model's metadata_props (inisis/OnnxSlim#38) but states none of the four. Exit 1 while any is dropped."""

import sys

import onnx
import onnxslim
from onnx import TensorProto, helper

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
nodes = [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])]
g = helper.make_graph(nodes, "g", [x], [y], doc_string="what the graph computes")
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
m.doc_string, m.model_version, m.domain = "what the model is for", 7, "org.example"
helper.set_model_props(m, {"author": "a"})
onnx.checker.check_model(m, full_check=True)
out = onnxslim.slim(m)
want = ("what the model is for", 7, "org.example", "what the graph computes")
got = (out.doc_string, out.model_version, out.domain, out.graph.doc_string)
print(onnxslim.__version__, "(doc_string, model_version, domain, graph doc_string) after slim:", got)
print("metadata_props kept:", {p.key: p.value for p in out.metadata_props})
if got != want:
    print("BUG: onnxslim dropped what the model says of itself")
    sys.exit(1)
print("ok")
