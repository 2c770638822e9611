"""onnx's reference evaluator (``onnx.reference.ReferenceEvaluator``, ``ops/op_loop.py``) runs a Loop whose ``cond``
input is left out zero times, whatever its trip count ``M`` (onnx 1.23.2).

Operators.md Loop-1/11/13/16/19/21: ``M`` and ``cond`` are both optional; with ``M`` given and ``cond`` the empty
name the Loop is a for loop of ``M`` iterations (the body's condition output is ignored). ``y = Loop(3, "", x)``
whose body returns ``v + x`` is ``4 * x``, as onnxruntime computes and as the reference evaluator computes for the
same Loop given ``cond = true``; with ``cond`` left out the reference evaluator returns ``x`` (no iteration), and a
scan output makes it raise (``np.vstack`` of nothing).

Needs onnx, onnxruntime, numpy. Exits 1 while the two spellings differ in the reference evaluator.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession


def model(cond):
    body = helper.make_graph(
        [helper.make_node("Identity", ["c"], ["c_out"]), helper.make_node("Add", ["v", "x"], ["v_out"])],
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
            helper.make_tensor_value_info("v", TensorProto.FLOAT, [2]),
        ],
        [
            helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
            helper.make_tensor_value_info("v_out", TensorProto.FLOAT, [2]),
        ],
    )
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", cond, "x"], ["y"], body=body)],
        "loop_cond",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [helper.make_tensor("m", TensorProto.INT64, [], [3]), helper.make_tensor("t", TensorProto.BOOL, [], [True])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


x = {"x": np.array([1.0, -2.0], np.float32)}
ref = {}
for cond in ("t", ""):
    m = model(cond)
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0]
    ref[cond] = ReferenceEvaluator(m).run(None, x)[0]
    print(f"onnx {onnx.__version__}, cond={cond!r}: onnxruntime {ran.tolist()}, reference {ref[cond].tolist()}")
if not np.array_equal(ref[""], ref["t"]):
    print("BUG: the reference evaluator runs no iteration of a Loop whose cond is left out (M = 3)")
    sys.exit(1)
print("ok: both spellings run M iterations")
