"""onnx's version converter, Sum 8 -> 7 (``adapters/sum_8_7.h``): a broadcasting Sum kept as Sum-6.

Operators.md Sum-6: "All inputs and outputs must have the same shape"; Sum-8 added multidirectional broadcasting.
``y = Sum-8(x, w)`` with ``x: float[2, 3, 4]``, ``w: float[4]`` converted to opset 7 keeps the node as it is:
the result is a Sum-6 whose inputs differ in shape, which onnxruntime refuses at run time. Expected: an explicit
broadcast (``Expand``) before the Sum, or a refusal ("broadcasting is not supported in opset 7"), as the
Max / Min / Mean 8 -> 7 adapters do. Needs onnx, onnxruntime, numpy; exits 1 while the defect is present.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, version_converter

graph = helper.make_graph(
    [helper.make_node("Sum", ["x", "w"], ["y"])],
    "sum8",
    [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4]),
        helper.make_tensor_value_info("w", TensorProto.FLOAT, [4]),
    ],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 8)], ir_version=3)
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.ones((2, 3, 4), np.float32), "w": np.arange(4, dtype=np.float32)}


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]


expected = run(model)
try:
    converted = version_converter.convert_version(model, 7)
except Exception as exc:  # a refusal is an acceptable answer
    print(f"onnx {onnx.__version__}: the converter refuses: {exc}")
    sys.exit(0)
print("converted:", [(n.op_type, list(n.input)) for n in converted.graph.node])
try:
    got = run(converted)
except Exception as exc:
    print(
        f"onnx {onnx.__version__} / onnxruntime {ort.__version__}: the converted model does not run: {str(exc)[:300]}"
    )
    sys.exit(1)
sys.exit(0 if np.array_equal(got, expected) else 1)
