"""onnx's reference evaluator (``onnx.reference``, ``ops/op_unsqueeze.py``) reads Unsqueeze-11's negative ``axes``
attribute against the input's rank instead of the output's (onnx 1.23.2).

Operators.md Unsqueeze-11: ``axes`` in [-r, r-1] with r = rank(output) = rank(data) + len(axes). For ``data: [2, 3,
4]`` and ``axes = [-4, -2]`` (r = 5: axes 1 and 3), the output is ``[2, 1, 3, 1, 4]``, as with ``axes = [1, 3]`` and
as onnxruntime computes; the reference evaluator gives ``[1, 2, 3, 1, 4]``.

Needs onnx, onnxruntime, numpy. Exits 1 while the reference evaluator's shape differs.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession


def model(axes):
    graph = helper.make_graph(
        [helper.make_node("Unsqueeze", ["x"], ["y"], axes=axes)],
        "unsqueeze",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 1, 3, 1, 4])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)], ir_version=6)
    onnx.checker.check_model(m, full_check=True)
    return m


feeds = {"x": np.arange(24, dtype=np.float32).reshape(2, 3, 4)}
shapes = {}
for axes in ([1, 3], [-4, -2]):
    m = model(axes)
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    shapes[str(axes)] = ReferenceEvaluator(m).run(None, feeds)[0].shape
    print(f"onnx {onnx.__version__}, axes {axes}: onnxruntime {ran.shape}, reference {shapes[str(axes)]}")
if shapes["[-4, -2]"] != (2, 1, 3, 1, 4):
    print("BUG: the reference evaluator places negative Unsqueeze-11 axes against the input's rank")
    sys.exit(1)
print("ok")
