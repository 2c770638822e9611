"""onnxruntime's Resize (and Upsample) give an output dim of floor(float32(dim) * float32(scale)); Operators.md
Resize says floor(input_dimension * scale), the product of the values, which onnx's reference evaluator and onnx
shape inference (1.22+) compute. For dim 3 and scale float32(5/3) = 1.66666663 the product is 4.99999989: the spec
gives 4, onnxruntime runs 5, and the annotation onnx shape inference writes (4) fails at run time.
Exits 1 while onnxruntime's dims differ from the reference evaluator's."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

scale = np.float32(5 / 3)
node = helper.make_node("Resize", ["x", "", "sc"], ["y"], mode="nearest")
graph = helper.make_graph(
    [node],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 2, 3, 3])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 2, None, None])],
    initializer=[numpy_helper.from_array(np.array([1, 1, scale, scale], np.float32), "sc")],
)
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "scale", repr(float(scale)))
print("exact product 3 * scale =", 3 * float(scale), "-> floor", int(np.floor(3 * float(scale))))
inferred = onnx.shape_inference.infer_shapes(m).graph.output[0].type.tensor_type.shape.dim
print("onnx shape inference:", [d.dim_value for d in inferred])
x = np.random.default_rng(0).random((1, 2, 3, 3), dtype=np.float32)
ref = ReferenceEvaluator(m).run(None, {"x": x})[0].shape
got = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0].shape
print("onnx reference evaluator:", ref, "onnxruntime:", got)
sys.exit(1 if got != ref else 0)
