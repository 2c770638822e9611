"""onnx's reference evaluator (``onnx.reference``, ``ops/op_softmax.py``, ``op_log_softmax.py``, ``op_hardmax.py``)
computes Softmax, LogSoftmax and Hardmax of opsets 1 and 11 with opset 13's meaning (onnx 1.23.2).

Operators.md Softmax-11 (and -1, LogSoftmax-1/11, Hardmax-1/11): the input "will be coerced into a 2-dimensional
tensor with dimensions [a_0 * ... * a_{k-1}, a_k * ... * a_{n-1}]" for the axis k (default 1), and the operator is
computed along the second of those dimensions. The evaluator has one class per op for every version: it reduces
over the given axis alone, and with ``axis`` omitted over the last axis (opset 13's default -1), not the schema's 1.
onnxruntime computes the coerced formula.

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator departs from the formula on a rank-3 input.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)


def coerced(op: str, axis: int) -> np.ndarray:
    """The opset-11 formula: ``x`` as a 2-D [a_0 * … * a_{k-1}, rest] matrix, the op along its rows."""
    a = x.reshape(int(np.prod(x.shape[:axis])), -1).astype(np.float64)
    if op == "Hardmax":
        y = np.zeros_like(a)
        y[np.arange(a.shape[0]), a.argmax(1)] = 1
    else:
        e = np.exp(a - a.max(1, keepdims=True))
        y = e / e.sum(1, keepdims=True)
        if op == "LogSoftmax":
            y = np.log(y)
    return y.reshape(x.shape).astype(np.float32)


bad = []
for op in ("Softmax", "LogSoftmax", "Hardmax"):
    for axis in (None, 1, 2):
        attrs = {} if axis is None else {"axis": axis}
        graph = helper.make_graph(
            [helper.make_node(op, ["x"], ["y"], **attrs)],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])],
        )
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)], ir_version=7)
        onnx.checker.check_model(m, full_check=True)
        expected = coerced(op, 1 if axis is None else axis)
        ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
        ref = ReferenceEvaluator(m).run(None, {"x": x})[0]
        e_ort, e_ref = float(np.abs(ran - expected).max()), float(np.abs(ref - expected).max())
        print(f"onnx {onnx.__version__}, {op}-11 axis={axis}: |onnxruntime - formula| {e_ort:.3g}, "
              f"|reference - formula| {e_ref:.3g}")
        if e_ref > 1e-4:
            bad.append(f"{op} axis={axis}")
if bad:
    print("BUG: the reference evaluator does not coerce the input to 2-D for opset 11:", ", ".join(bad))
    sys.exit(1)
print("ok")
