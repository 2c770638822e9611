"""onnx shape inference drops the denotation of a declared static dim of an output or value_info.

onnx.proto TensorShapeProto.Dimension.denotation (DimensionDenotation.md): each dim of a declared type may carry
a standard label, part of the value's declared type. `y = Neg(Relu(x))`, `x: float[N, 3]` (no labels),
the value_info `t` and the output `y` declared `float[N, 3]` with DATA_FEATURE on both dims, opset 18.
infer_shapes keeps the label of the symbolic dim and drops the one of the static dim: `mergeShapesAndTypes`
(onnx/shape_inference/implementation.cc) assigns the whole inferred Dimension over the declared one whenever
the inferred dim has a value (`*existing_dim = inferred_dim`), and the inferred dim carries no label.
Exits 1 while a declared label is dropped."""

import sys

import onnx
from onnx import TensorProto, helper


def labelled(name):
    v = helper.make_tensor_value_info(name, TensorProto.FLOAT, ["N", 3])
    for d in v.type.tensor_type.shape.dim:
        d.denotation = "DATA_FEATURE"
    return v


graph = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["t"]), helper.make_node("Neg", ["t"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
    [labelled("y")],
    value_info=[labelled("t")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
print("onnx", onnx.__version__)
bad = False
for data_prop in (False, True):
    out = onnx.shape_inference.infer_shapes(model, data_prop=data_prop)
    for v in [*out.graph.output, *out.graph.value_info]:
        labels = [d.denotation for d in v.type.tensor_type.shape.dim]
        print(f"data_prop={data_prop} {v.name}: {labels}")
        bad |= labels != ["DATA_FEATURE", "DATA_FEATURE"]
if bad:
    print("BUG: a declared dim denotation was dropped")
    sys.exit(1)
sys.exit(0)
