"""onnx's version converter drops every metadata_props entry below the model (IR 10).

IR.md §Other Metadata: from IR version 10 a graph, a node and a ValueInfoProto may carry metadata_props
(key-value pairs that describe, and never change, what the model computes). A model `y = Neg(Relu(x))`,
opset 18, IR 10, with an entry on the graph input `x`, the output `y`, the value_info `t`, the Relu node
and the graph, converted to opset 19 (Relu and Neg are untouched by the step): the converter rebuilds the
graph from its own IR (`onnx/common/ir_pb_converter.cc`), which reads none of these fields, so every entry
is gone; the model's own metadata_props are kept. Exits 1 while an entry is dropped."""

import sys

import onnx
import onnx.version_converter
from onnx import TensorProto, helper


def entry(proto, value):
    proto.metadata_props.append(onnx.StringStringEntryProto(key="unit", value=value))


x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
t = helper.make_tensor_value_info("t", TensorProto.FLOAT, [2, 3])
relu = helper.make_node("Relu", ["x"], ["t"], name="relu")
graph = helper.make_graph([relu, helper.make_node("Neg", ["t"], ["y"])], "g", [x], [y], value_info=[t])
for proto, value in ((x, "input"), (y, "output"), (t, "value_info"), (relu, "node"), (graph, "graph")):
    entry(proto, value)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=10)
onnx.checker.check_model(model, full_check=True)
print("onnx", onnx.__version__)
out = onnx.version_converter.convert_version(model, 19)
g = out.graph
kept = {
    "input": len(g.input[0].metadata_props),
    "output": len(g.output[0].metadata_props),
    "value_info": sum(len(v.metadata_props) for v in g.value_info),
    "node": sum(len(n.metadata_props) for n in g.node),
    "graph": len(g.metadata_props),
}
print("metadata_props entries kept (of 1 each):", kept)
if not all(kept.values()):
    print("BUG: the converter dropped metadata_props of", [k for k, v in kept.items() if not v])
    sys.exit(1)
sys.exit(0)
