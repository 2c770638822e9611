"""onnxruntime's Resize with `sizes` and keep_aspect_ratio_policy "not_larger" computes an output dim by rounding a
float32 product; Operators.md Resize-18/19 gives out_size[d] = round_int(scale * in_size[d]) with
scale = Min(sizes[i] / in_size[axes[i]]) and round_int "rounding halfway cases up". For x: [1, 1, 14, 7] and
sizes [31, 16] on axes [2, 3], scale = 31/14 and 7 * 31/14 = 15.5 exactly: the spec gives 16 (onnx's reference
evaluator and onnx shape inference 1.22+ agree), onnxruntime runs 15 (float32(31/14) * 7 = 15.4999995).
Exits 1 while onnxruntime's dims differ from the reference evaluator's."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

node = helper.make_node(
    "Resize", ["x", "", "", "sz"], ["y"], mode="nearest", axes=[2, 3], keep_aspect_ratio_policy="not_larger"
)
graph = helper.make_graph(
    [node],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 1, 14, 7])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 1, None, None])],
    initializer=[numpy_helper.from_array(np.array([31, 16], np.int64), "sz")],
)
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
print("spec: scale = min(31/14, 16/7) = 31/14; 7 * 31/14 = 15.5 -> round_int 16")
inferred = onnx.shape_inference.infer_shapes(m).graph.output[0].type.tensor_type.shape.dim
print("onnx shape inference:", [d.dim_value for d in inferred])
x = np.random.default_rng(0).random((1, 1, 14, 7), dtype=np.float32)
ref = ReferenceEvaluator(m).run(None, {"x": x})[0].shape
got = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0].shape
print("onnx reference evaluator:", ref, "onnxruntime:", got)
sys.exit(1 if got != ref else 0)
