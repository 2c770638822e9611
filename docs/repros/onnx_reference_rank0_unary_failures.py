"""onnx's reference evaluator (``onnx.reference``: ``op_softsign.py``, ``op_random_normal_like.py``,
``op_random_uniform_like.py``) fails on a rank-0 input of Softsign, RandomNormalLike and RandomUniformLike (onnx
1.23.2).

Operators.md Softsign (-1, -22), RandomNormalLike-1 and RandomUniformLike-1 take a tensor of any shape, a scalar
(rank 0) among them, and give an output of the input's shape. On a 0-d array numpy returns a scalar (``numpy.float32``)
rather than an array from the evaluator's expression, and its own result check refuses it ("Issues with types");
onnxruntime runs every node and returns a 0-d output.

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator fails on one of them.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

x = np.array(0.375, dtype=np.float32)
cases = [("Softsign", 22, {}), ("RandomNormalLike", 1, {"seed": 3.0}), ("RandomUniformLike", 1, {"seed": 3.0})]
bad = []
for op, opset, attrs in cases:
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"], **attrs)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
    onnx.checker.check_model(m, full_check=True)
    try:
        ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
        said = f"onnxruntime shape {list(ran.shape)}"
    except Exception as e:  # noqa: BLE001 - recorded, the evaluator is what is judged
        said = f"onnxruntime fails: {type(e).__name__}"
    try:
        ref = ReferenceEvaluator(m).run(None, {"x": x})[0]
        print(f"onnx {onnx.__version__}, {op}-{opset}(rank 0): {said}, reference shape {list(np.shape(ref))}")
    except Exception as e:  # noqa: BLE001 - the evaluator's failure is the finding
        print(f"onnx {onnx.__version__}, {op}-{opset}(rank 0): {said}, reference fails: {type(e).__name__}")
        bad.append(op)
if bad:
    print("BUG: the reference evaluator fails on a rank-0 input:", ", ".join(bad))
    sys.exit(1)
print("ok")
