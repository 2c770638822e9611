"""onnx's reference evaluator (``onnx.reference``, ``ops/op_reduce_sum_square.py``) returns ReduceSumSquare of an
int32 tensor as int64 (onnx 1.23.2).

Operators.md ReduceSumSquare-18 (and -1, -11, -13): ``data`` and ``reduced`` share the type parameter T (int32
among them). The evaluator returns numpy's ``sum(square(x))``, which widens int32 to int64, with no cast back to
T; onnxruntime returns int32.

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator's output is not of the input's element type.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

x = np.arange(24, dtype=np.int32).reshape(2, 3, 4) % 5
bad = []
for opset, inputs, attrs in ((13, ["x"], {"axes": [1]}), (18, ["x", "axes"], {})):
    graph = helper.make_graph(
        [helper.make_node("ReduceSumSquare", inputs, ["y"], **attrs)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.INT32, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT32, [2, 1, 4])],
        [numpy_helper.from_array(np.array([1], np.int64), "axes")] if opset >= 18 else [],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    ref = ReferenceEvaluator(m).run(None, {"x": x})[0]
    print(f"onnx {onnx.__version__}, ReduceSumSquare-{opset}(int32): onnxruntime {ran.dtype}, reference {ref.dtype}")
    if ref.dtype != np.int32:
        bad.append(str(opset))
if bad:
    print("BUG: the reference evaluator's ReduceSumSquare of int32 is not int32 (opsets " + ", ".join(bad) + ")")
    sys.exit(1)
print("ok")
