"""onnx's reference evaluator (``onnx.reference``, ``ops/op_resize.py``) cannot run Resize-10 (onnx 1.23.2).

Operators.md Resize-10 has two inputs, ``X`` and ``scales`` (``roi`` and ``sizes`` came with Resize-11). The
evaluator's one Resize class reads its inputs in Resize-11's order ``(X, roi, scales, sizes)``, so Resize-10's
``scales`` lands in ``roi`` and the run fails ("output_size is None and scale_factors is None"); onnxruntime runs the
node (nearest, each element repeated twice per axis here).

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator fails or departs from the nearest upsampling.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
expected = x.repeat(2, axis=2).repeat(2, axis=3)
graph = helper.make_graph(
    [helper.make_node("Resize", ["x", "scales"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 4, 4])],
    [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")],
)
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 10)], ir_version=5)
onnx.checker.check_model(m, full_check=True)
ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
print(f"onnx {onnx.__version__}, Resize-10: |onnxruntime - nearest| {np.abs(ran - expected).max():.3g}")
try:
    ref = ReferenceEvaluator(m).run(None, {"x": x})[0]
except Exception as e:  # noqa: BLE001 - the evaluator's failure is the finding
    print(f"BUG: the reference evaluator fails on Resize-10: {type(e).__name__}: {e}")
    sys.exit(1)
err = float(np.abs(ref - expected).max()) if ref.shape == expected.shape else float("inf")
print(f"|reference - nearest| {err:.3g}")
if err > 0:
    print("BUG: the reference evaluator departs from Resize-10's nearest upsampling")
    sys.exit(1)
print("ok")
