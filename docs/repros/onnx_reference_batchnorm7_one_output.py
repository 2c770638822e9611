"""onnx's reference evaluator (``onnx.reference``, ``ops/op_batch_normalization.py``) cannot run a BatchNormalization-7
with its one output (onnx 1.23.2).

Operators.md BatchNormalization-7: the mode is the output count; with the single output ``Y`` (test mode) ``Y = (X -
mean) / sqrt(var + epsilon) * scale + B`` with the given ``mean`` and ``var`` (opset 7 removed ``is_test``). The
evaluator runs opsets 7 and 8 with its BatchNormalization-6 class, which takes the test path only when ``is_test`` is
set; with no ``is_test`` it takes the training path and returns its five arrays as one tuple, and the run fails
("One of the results returned by method '_run' ... is a tuple"). onnxruntime runs the node to the formula.

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator fails or departs from the formula.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

rng = np.random.default_rng(0)
x = rng.standard_normal((2, 3, 3)).astype(np.float32)
scale, bias, mean = (rng.standard_normal(3).astype(np.float32) for _ in range(3))
var = (rng.random(3) + 0.5).astype(np.float32)
expected = (x - mean[:, None]) / np.sqrt(var[:, None] + 1e-5) * scale[:, None] + bias[:, None]

graph = helper.make_graph(
    [helper.make_node("BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["y"], epsilon=1e-5)],
    "bn",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 3])],
    [numpy_helper.from_array(a, n) for a, n in zip((scale, bias, mean, var), ("scale", "bias", "mean", "var"))],
)
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 7)], ir_version=4)
onnx.checker.check_model(m, full_check=True)
ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
print(f"onnx {onnx.__version__}, BatchNormalization-7: |onnxruntime - formula| {np.abs(ran - expected).max():.3g}")
try:
    ref = ReferenceEvaluator(m).run(None, {"x": x})[0]
except Exception as e:  # noqa: BLE001 - the evaluator's failure is the finding
    print(f"BUG: the reference evaluator fails on a one-output BatchNormalization-7: {type(e).__name__}: {e}")
    sys.exit(1)
err = float(np.abs(ref - expected).max())
print(f"|reference - formula| {err:.3g}")
if err > 1e-4:
    print("BUG: the reference evaluator departs from the test-mode formula")
    sys.exit(1)
print("ok")
