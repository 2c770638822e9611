"""onnx's reference evaluator (``onnx.reference``, ``ops/op_mean.py``) fails on a Mean whose first input is smaller
than the broadcast result (onnx 1.23.2).

Operators.md Mean-8 (and -13): "This operator supports multidirectional (i.e., Numpy-style) broadcasting", so
``Mean(a: [2, 1, 4], b: [1, 3, 1])`` is ``(a + b) / 2`` of shape [2, 3, 4]. The evaluator copies the first input and
adds the others into it in place, which numpy refuses when the first input is not already of the result's shape
("non-broadcastable output operand"); onnxruntime computes the mean.

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator fails or departs from the formula.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

rng = np.random.default_rng(0)
a = rng.standard_normal((2, 1, 4)).astype(np.float32)
b = rng.standard_normal((1, 3, 1)).astype(np.float32)
expected = (a + b) / 2
bad = []
for opset in (8, 13):
    graph = helper.make_graph(
        [helper.make_node("Mean", ["a", "b"], ["y"])],
        "g",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 1, 4]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, [1, 3, 1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
    onnx.checker.check_model(m, full_check=True)
    feed = {"a": a, "b": b}
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]
    print(f"onnx {onnx.__version__}, Mean-{opset}([2, 1, 4], [1, 3, 1]): |onnxruntime - formula| "
          f"{np.abs(ran - expected).max():.3g}")
    try:
        ref = ReferenceEvaluator(m).run(None, feed)[0]
    except Exception as e:  # noqa: BLE001 - the evaluator's failure is the finding
        print(f"  the reference evaluator fails: {type(e).__name__}: {e}")
        bad.append(str(opset))
        continue
    if ref.shape != expected.shape or np.abs(ref - expected).max() > 1e-6:
        bad.append(str(opset))
if bad:
    print("BUG: the reference evaluator's Mean does not broadcast its first input (opsets " + ", ".join(bad) + ")")
    sys.exit(1)
print("ok")
