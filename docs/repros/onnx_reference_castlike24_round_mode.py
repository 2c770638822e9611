"""onnx's reference evaluator (``onnx.reference``, ``ops/op_cast_like.py``) fails on CastLike-24 with its
``round_mode`` attribute written (onnx 1.23.2).

Operators.md CastLike-24: ``round_mode`` (default ``up``) and ``saturate`` are attributes of the op, used for float8
targets. ``CastLike(x, t, round_mode="up")`` to float is ``CastLike(x, t)``: onnxruntime computes both alike; the
reference evaluator runs the one without the attribute and raises a TypeError ("Issues with types … and
attributes ['round_mode', 'saturate']") on the one with it.

Needs onnx, onnxruntime, numpy. Exits 1 while the reference evaluator fails on the written default.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession


def model(**attrs):
    graph = helper.make_graph(
        [helper.make_node("CastLike", ["x", "t"], ["y"], **attrs)],
        "cast_like",
        [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor("t", TensorProto.FLOAT, [1], [0.0])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 24)], ir_version=11)
    onnx.checker.check_model(m, full_check=True)
    return m


feeds = {"x": np.linspace(-1, 1, 6).reshape(2, 3)}
failed = None
for attrs in ({}, {"round_mode": "up"}):
    m = model(**attrs)
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    try:
        got = ReferenceEvaluator(m).run(None, feeds)[0].ravel().tolist()
    except Exception as exc:  # noqa: BLE001
        got, failed = f"{type(exc).__name__}: {str(exc)[:120]}", attrs
    print(
        f"onnx {onnx.__version__}, {attrs or 'round_mode left out'}: onnxruntime {ran.ravel().tolist()}, reference {got}"
    )
if failed:
    print("BUG: the reference evaluator fails on CastLike-24 with round_mode written")
    sys.exit(1)
print("ok")
