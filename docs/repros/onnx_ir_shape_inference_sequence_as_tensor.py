"""onnx-ir 1.1.0 ShapeInferencePass (onnx_ir/passes/common/shape_inference.py, `_merge_func`) copies the inferred
element type (`value.dtype = inferred_value.dtype`) onto values that had no type, whatever the inferred type's kind:
a sequence value (SplitToSequence's output) is annotated `tensor(float)`. The checker then rejects the model
("SequenceAt ... input_sequence typestr: S, has unsupported type: tensor(float)"). onnx's own shape inference types
the value as a sequence. Exit 1 while the bug is present."""

import sys

import onnx
import onnx.shape_inference
import onnx_ir
import onnx_ir.passes.common
from onnx import helper

T = onnx.TensorProto.FLOAT
graph = helper.make_graph(
    [
        helper.make_node("SplitToSequence", ["x"], ["s"], axis=0),
        helper.make_node("SequenceAt", ["s", "i"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", T, [2, 4]), helper.make_tensor_value_info("i", onnx.TensorProto.INT64, [])],
    [helper.make_tensor_value_info("y", T, [1, 4])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
onnx_typed = {v.name: v.type.WhichOneof("value") for v in onnx.shape_inference.infer_shapes(model).graph.value_info}
print("onnx shape inference types s as:", onnx_typed.get("s"))

ir_model = onnx_ir.serde.deserialize_model(model)
onnx_ir.passes.common.ShapeInferencePass()(ir_model)
out = onnx_ir.serde.serialize_model(ir_model)
print("ShapeInferencePass types s as:", {v.name: v.type.WhichOneof("value") for v in out.graph.value_info}.get("s"))
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, str(exc).splitlines()[0][:300])
    sys.exit(1)
print("ok")
