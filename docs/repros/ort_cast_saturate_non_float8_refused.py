"""onnxruntime 1.32.0 (CPU Cast kernel, core/providers/cpu/tensor/cast_op.cc) refuses a Cast or CastLike (opsets
19-24) whose `saturate` is written 0 and whose target is not a float8 type: "Attribute saturate is only used for cast
to float 8 types". Cast-19's and CastLike-19's schemas give `saturate` to every node ("It only applies for float 8
conversion", Operators.md): the attribute is allowed on any Cast and has no effect on other targets. The checker
(full_check) accepts the model and onnx's reference evaluator runs it (1.5 -> 1.5 as float16); `saturate=1` with the
same target is accepted by onnxruntime. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

graph = helper.make_graph(
    [helper.make_node("Cast", ["x"], ["y"], to=TensorProto.FLOAT16, saturate=0)],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
onnx.checker.check_model(model, full_check=True)
x = np.array([1.5, -2.25], np.float32)
print("reference:", ReferenceEvaluator(model).run(None, {"x": x})[0])
try:
    got = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own Fail type
    print("BUG: onnxruntime refuses the valid model:", str(exc).strip().splitlines()[0][-90:])
    sys.exit(1)
print("onnxruntime:", got)
print("ok")
