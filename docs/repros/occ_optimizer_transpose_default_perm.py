"""onnxconverter-common's graph optimizer deletes a Transpose that omits ``perm`` as if it were an identity.

``y = Relu(Transpose(x))``, ``x: float[2, 3]``, opset 17. Operators.md Transpose: "perm … By default, reverse the
dimensions", so ``Transpose(x)`` and ``Transpose(x, perm=[1, 0])`` are the same op on a 2-D input and ``y`` is
``float[3, 2]``. ``onnxconverter_common.optimizer.optimize_onnx_model`` (1.16.0) reads ``perm`` with
``Solution.get_perm``, which returns ``[]`` when the attribute is absent; ``Solution.is_useless_transpose([])`` is
True (``[] == list(range(0))``), so ``TransposeOptimizer`` removes the node: the optimized model computes
``Relu(x)``, ``float[2, 3]``.

Needs onnx, onnxruntime, onnxconverter-common, numpy. Exits 1 while the explicit perm is kept and the omitted one
is removed (the optimized model's output differs from the given model's).
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnxconverter_common.optimizer import optimize_onnx_model


def model(**perm):
    nodes = [helper.make_node("Transpose", ["x"], ["t"], **perm), helper.make_node("Relu", ["t"], ["y"])]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def run(m, x):
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
wrong = {}
for label, perm in (("perm=[1, 0]", {"perm": [1, 0]}), ("perm omitted", {})):
    given = model(**perm)
    expected = run(given, x)
    out = optimize_onnx_model(onnx.ModelProto.FromString(given.SerializeToString()))
    got = run(out, x)
    wrong[label] = got.shape != expected.shape or not np.array_equal(got, expected)
    ops = [n.op_type for n in out.graph.node]
    print(f"{label}: given {expected.shape}, optimized {got.shape} {ops}: {'WRONG' if wrong[label] else 'same'}")
sys.exit(1 if not wrong["perm=[1, 0]"] and wrong["perm omitted"] else 0)
