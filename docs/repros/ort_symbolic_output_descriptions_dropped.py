"""onnxruntime's SymbolicShapeInference.infer_shapes (tools/symbolic_shape_infer.py, `_update_output_from_vi`, which
`output.CopyFrom`s the inferred ValueInfoProto over each graph output), and quant_pre_process, which runs it: a graph
output's own descriptions (ValueInfoProto.doc_string, ValueInfoProto.metadata_props (IR 10), the type denotation and
the dims' denotations, onnx.proto / IR.md) are replaced by an inferred value_info that has none, though the tool only
adds shapes. The model is `y = Relu(x)`, `y: float[N, 3]` documented and labelled. Exit 1 while any is dropped."""

import sys

import onnx
from onnx import TensorProto, helper
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])
y.doc_string = "the activations"
y.type.denotation = "TENSOR"
y.type.tensor_type.shape.dim[0].denotation = "DATA_BATCH"
y.metadata_props.add(key="unit", value="volt")
graph = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
    [y],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=10)
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = SymbolicShapeInference.infer_shapes(model).graph.output[0]


def fields(v):
    return {
        "doc_string": v.doc_string,
        "metadata_props": [(p.key, p.value) for p in v.metadata_props],
        "denotation": v.type.denotation,
        "dim-denotation": v.type.tensor_type.shape.dim[0].denotation,
    }


lost = {k: v for k, v in fields(y).items() if fields(out)[k] != v}
print("output y after inference:", fields(out))
if lost:
    print("BUG: dropped from the graph output:", ", ".join(lost))
    sys.exit(1)
print("ok")
