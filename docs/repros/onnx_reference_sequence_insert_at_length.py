"""onnx's reference evaluator (``onnx.reference``, ``ops/op_sequence_insert.py``) inserts at the front a tensor that
SequenceInsert is given the position ``n`` for, n the length of the sequence (onnx 1.23.2).

Operators.md SequenceInsert-11: the position's accepted range is [-n, n]; position ``n`` puts the tensor after the
last one, as leaving the position out does. ``ConcatFromSequence(SequenceInsert([a, b, c], d, 3))`` is
``[a, b, c, d]``, as onnxruntime computes and as the reference evaluator computes with the position left out; the
reference evaluator reduces the position modulo n (``(3 + 3) % 3 = 0``) and gives ``[d, a, b, c]``.

Needs onnx, onnxruntime, numpy. Exits 1 while the reference evaluator puts the tensor at the front.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession


def model(with_position):
    graph = helper.make_graph(
        [
            helper.make_node("SequenceConstruct", ["a", "b", "c"], ["s"]),
            helper.make_node("SequenceInsert", ["s", "d", "p"] if with_position else ["s", "d"], ["s2"]),
            helper.make_node("ConcatFromSequence", ["s2"], ["y"], axis=0),
        ],
        "insert_at_length",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1]) for n in "abcd"],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
        [helper.make_tensor("p", TensorProto.INT64, [], [3])] if with_position else [],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


feeds = {n: np.array([float(i + 1)], np.float32) for i, n in enumerate("abcd")}
ref = {}
for with_position in (False, True):
    m = model(with_position)
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    ref[with_position] = ReferenceEvaluator(m).run(None, feeds)[0]
    label = "position 3" if with_position else "position left out"
    print(f"onnx {onnx.__version__}, {label}: onnxruntime {ran.tolist()}, reference {ref[with_position].tolist()}")
if not np.array_equal(ref[True], ref[False]):
    print("BUG: the reference evaluator inserts at the front for position n (the back)")
    sys.exit(1)
print("ok: position n appends")
