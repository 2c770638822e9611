"""onnx's reference evaluator (``onnx.reference``, ``ops/op_affine_grid.py``) returns AffineGrid's grid as float32 for
a double (or float16) ``theta`` (onnx 1.23.2).

Operators.md AffineGrid-20: ``theta`` and ``grid`` share the type parameter T1 (bfloat16, float16, float, double). The
evaluator casts the grid it builds to float32 whatever T1 is; onnxruntime returns float64 for a double theta.

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator's grid is not of theta's element type.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

theta = np.random.default_rng(0).standard_normal((1, 2, 3))
graph = helper.make_graph(
    [helper.make_node("AffineGrid", ["theta", "size"], ["grid"])],
    "g",
    [helper.make_tensor_value_info("theta", TensorProto.DOUBLE, [1, 2, 3])],
    [helper.make_tensor_value_info("grid", TensorProto.DOUBLE, [1, 2, 3, 2])],
    [numpy_helper.from_array(np.array([1, 1, 2, 3], np.int64), "size")],
)
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=9)
onnx.checker.check_model(m, full_check=True)
ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"theta": theta})[0]
ref = ReferenceEvaluator(m).run(None, {"theta": theta})[0]
print(f"onnx {onnx.__version__}, AffineGrid-20(double theta): onnxruntime {ran.dtype}, reference {ref.dtype}, "
      f"|difference| {np.abs(ran - ref).max():.3g}")
if ref.dtype != np.float64:
    print("BUG: the reference evaluator's grid is not of theta's type (T1)")
    sys.exit(1)
print("ok")
