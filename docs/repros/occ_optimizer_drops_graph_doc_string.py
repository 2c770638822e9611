"""onnxconverter-common 1.16.0 `onnxconverter_common.optimizer.optimize_onnx_model` on `y = Neg(Relu(x))` whose main
graph states a doc_string and a metadata_props entry (IR.md §Graphs: the graph's documentation; §Other Metadata:
metadata_props on graphs from IR 10); opset 18, IR 10. Nothing is optimized away; the model's own doc_string is
kept, the graph's two are not: `optimize_onnx_graph` builds the graph anew with `helper.make_graph(nodes, name,
inputs, outputs, initializers)` (`_generate_graph_from_nodelist`) and `optimize_onnx_model` copies that over the
model's graph. Exit 1 while either is dropped."""

import sys

import onnx
import onnxconverter_common
from onnx import TensorProto, helper
from onnxconverter_common.optimizer import optimize_onnx_model

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
nodes = [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])]
g = helper.make_graph(nodes, "g", [x], [y], doc_string="what the graph computes")
g.metadata_props.add(key="author", value="a")
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=10)
m.doc_string = "what the model is for"
onnx.checker.check_model(m, full_check=True)
out = optimize_onnx_model(m)
got = (out.graph.doc_string, {p.key: p.value for p in out.graph.metadata_props})
print(onnxconverter_common.__version__, "graph (doc_string, metadata_props) after optimize:", got)
print("model doc_string kept:", repr(out.doc_string), "nodes:", [n.op_type for n in out.graph.node])
if got != ("what the graph computes", {"author": "a"}):
    print("BUG: onnxconverter-common's optimizer dropped what the graph says of itself")
    sys.exit(1)
print("ok")
