"""onnxruntime's symbolic shape inference (`onnxruntime.tools.symbolic_shape_infer.SymbolicShapeInference`, also the
first step of `onnxruntime.quantization.shape_inference.quant_pre_process`) states a Resize output dim the spec does not
give: `_infer_Resize` computes `sympy.floor(d * s)` with `s` the scale as read from the initializer, a numpy float32,
which SymPy turns into a Float of float32 precision, so `3 * 1.66666663` (4.99999988 exactly) becomes `5.00000` and its
floor 5. Operators.md (Resize): output_dimension = floor(input_dimension * scale); onnx's shape inference (1.22+) and
onnx.reference give 4. The written annotation `[1, 2, 5, 5]` then contradicts onnx's own inference: strict onnx shape
inference on the result raises "Inferred shape and existing shape differ in dimension 2: (4) vs (5)" (how the hunt saw
it, under `ort-quant:pre-process`). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

scale = np.float32(5 / 3)  # 1.66666663: 3 * scale is just below 5
graph = helper.make_graph(
    [helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest")],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None, None, None])],
    initializer=[numpy_helper.from_array(np.array([1, 1, scale, scale], np.float32), "scales")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(model, full_check=True)


def dims(m):
    return [d.dim_value for d in m.graph.output[0].type.tensor_type.shape.dim]


spec = [1, 2, int(np.floor(3 * float(scale))), int(np.floor(3 * float(scale)))]
print("spec floor(3 * 1.66666663):", spec, "onnx:", dims(onnx.shape_inference.infer_shapes(model)))
inferred = SymbolicShapeInference.infer_shapes(model)
print("symbolic shape inference:", dims(inferred))
if dims(inferred) != spec:
    try:
        onnx.shape_inference.infer_shapes(inferred, check_type=True, strict_mode=True)
    except onnx.shape_inference.InferenceError as exc:
        print("onnx's strict inference on the result:", str(exc).strip().splitlines()[-1][:160])
    print("BUG: the output dims are not the spec's")
    sys.exit(1)
print("ok")
