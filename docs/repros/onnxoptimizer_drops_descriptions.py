"""onnxoptimizer drops every description of the graph's inputs and outputs.

IR.md §Graphs (ValueInfoProto doc_string), §Other Metadata (ValueInfoProto metadata_props, IR 10), §Type Denotation
and DimensionDenotation.md: a graph input or output may carry a doc_string, metadata entries, a type denotation and
dim labels; they never enter the computation. `y = Neg(Relu(x))`, `x`, `y: float[N, 3]` each with all four, opset
18, IR 10: `onnxoptimizer.optimize(m)` (the default passes) returns `x` and `y` with none of them. onnxoptimizer
rebuilds the model through onnx's graph IR (`ir_pb_converter`), which kept no value doc_string before
onnx/onnx#8205 and keeps no denotation or metadata_props today (docs/found.md rows 280, 710).
Exits 1 while a description is dropped."""

import sys

import onnx
import onnxoptimizer
from onnx import TensorProto, helper


def described(name):
    v = helper.make_tensor_value_info(name, TensorProto.FLOAT, ["N", 3], doc_string=f"{name} documented")
    v.type.denotation = "TENSOR"
    for d in v.type.tensor_type.shape.dim:
        d.denotation = "DATA_FEATURE"
    v.metadata_props.append(onnx.StringStringEntryProto(key="unit", value=name))
    return v


def said(v):
    dims = [d.denotation for d in v.type.tensor_type.shape.dim]
    return v.doc_string, v.type.denotation, dims, [(p.key, p.value) for p in v.metadata_props]


graph = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["t"]), helper.make_node("Neg", ["t"], ["y"])],
    "g",
    [described("x")],
    [described("y")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=10)
onnx.checker.check_model(model, full_check=True)
out = onnxoptimizer.optimize(model)
print("onnx", onnx.__version__)
bad = False
for before, after in ((model.graph.input[0], out.graph.input[0]), (model.graph.output[0], out.graph.output[0])):
    print(before.name, "before:", said(before), "after:", said(after))
    bad |= said(before) != said(after)
if bad:
    print("BUG: onnxoptimizer dropped a description of the interface")
    sys.exit(1)
sys.exit(0)
