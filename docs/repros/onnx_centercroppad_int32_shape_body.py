"""onnx 1.23.2's function body for CenterCropPad-18 is ill-typed when `shape` is int32 (its constraint Tind
allows int32 and int64): the body it builds computes `Max(Shape(input_data), shape)`, an int64 tensor with an
int32 one under one type variable. onnx's checker (full_check) accepts the model and the reference evaluator
runs it, but onnxruntime 1.32.0, which has no CenterCropPad kernel and runs the op by expanding this body,
refuses it at load: "Type parameter (T) of Optype (Max) bound to different types (tensor(int64) and
tensor(int32)". With `shape` int64 the same model runs. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx.defs
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator


def model(dtype):
    graph = helper.make_graph(
        [helper.make_node("CenterCropPad", ["x", "shape"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3, 2, 4])],
        [numpy_helper.from_array(np.array([3, 2, 4], dtype), "shape")],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
schema = onnx.defs.get_schema("CenterCropPad", 18)
node = helper.make_node("CenterCropPad", ["x", "shape"], ["y"])
types = [
    helper.make_tensor_type_proto(onnx.TensorProto.FLOAT, [2, 3, 4]),
    helper.make_tensor_type_proto(onnx.TensorProto.INT32, [3]),
]
body = onnx.FunctionProto()
body.ParseFromString(
    schema.get_context_dependent_function(node.SerializeToString(), [t.SerializeToString() for t in types])
)
print("body for int32 shape:", [f"{n.op_type}({', '.join(n.input)})" for n in body.node][:3])
runs = {}
for dtype in (np.int64, np.int32):
    m = model(dtype)
    expected = ReferenceEvaluator(m).run(None, {"x": x})[0]
    try:
        y = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
        runs[dtype.__name__] = bool(np.array_equal(y, expected))
        print(dtype.__name__, "shape: runs, equal to the reference evaluator:", runs[dtype.__name__])
    except Exception as exc:  # noqa: BLE001
        runs[dtype.__name__] = False
        print(dtype.__name__, "shape: BUG:", str(exc).splitlines()[0][:300])
sys.exit(1 if runs["int64"] and not runs["int32"] else 0)
