"""onnx's reference evaluator (``onnx.reference``, ``ops/op_batch_normalization.py``) computes BatchNormalization-9
with one output in training mode (onnx 1.23.2, also 1.16.2 … 1.22.0).

Operators.md BatchNormalization-9: the mode is the output count. With the single output ``Y`` (test mode), ``Y = (X -
mean) / sqrt(var + epsilon) * scale + B`` with the given ``mean`` and ``var``, as onnxruntime computes and as the
evaluator computes for BatchNormalization-14/15 with ``training_mode`` 0. The evaluator takes the test path only when
``momentum`` is None, and the schema's default 0.9 is always filled in: it blends the batch's statistics into the
running ones and normalizes with those.

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator's BatchNormalization-9 differs from the formula.
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

worst = {}
for opset in (9, 14, 15):
    graph = helper.make_graph(
        [helper.make_node("BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["y"], epsilon=1e-5)],
        "bn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 3])],
        [numpy_helper.from_array(a, n) for a, n in zip((scale, bias, mean, var), ("scale", "bias", "mean", "var"))],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    ref = ReferenceEvaluator(m).run(None, {"x": x})[0]
    worst[opset] = float(np.abs(ref - expected).max())
    print(f"onnx {onnx.__version__}, opset {opset}: |onnxruntime - formula| {np.abs(ran - expected).max():.3g}, "
          f"|reference - formula| {worst[opset]:.3g}")
if worst[9] > 1e-4:
    print("BUG: the reference evaluator runs a one-output BatchNormalization-9 in training mode")
    sys.exit(1)
print("ok")
