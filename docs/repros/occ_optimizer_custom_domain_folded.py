"""onnxconverter-common's graph optimizer folds a node of another domain as the ai.onnx op of the same name.

``k = local.Mul(a, b)`` (a model-local function ``local.Mul(p, q) = Sub(p, q)``), ``y = Add(x, k)``, ``a``, ``b``
float ``[3]`` initializers, opset 17. IR.md §Operator Set Identifiers / §Functions: an operator is named by its
domain and op type; ``local.Mul`` is not ai.onnx ``Mul``. ``const_folding_optimizer`` (onnxconverter-common 1.16.0)
picks the evaluator by ``"_On" + node.op_type`` (``OnnxGraphContext.calculate``), whatever ``node.domain`` says,
so it folds ``local.Mul(a, b)`` to ``np.multiply(a, b)``: the optimized model computes ``x + a * b`` where the given
model computes ``x + (a - b)``.

Needs onnx, onnxruntime, onnxconverter-common, numpy. Exits 1 while the ai.onnx Mul folds to the same numbers and
the local one folds to others.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

VI = helper.make_tensor_value_info
A = numpy_helper.from_array(np.array([1.0, 2.0, 3.0], np.float32), "a")
B = numpy_helper.from_array(np.full(3, 2.0, np.float32), "b")
FN = helper.make_function(
    "local", "Mul", ["p", "q"], ["r"], [helper.make_node("Sub", ["p", "q"], ["r"])], [helper.make_opsetid("", 17)]
)


def model(domain):
    nodes = [helper.make_node("Mul", ["a", "b"], ["k"], domain=domain), helper.make_node("Add", ["x", "k"], ["y"])]
    graph = helper.make_graph(nodes, "g", [VI("x", TensorProto.FLOAT, [3])], [VI("y", TensorProto.FLOAT, [3])], [A, B])
    imports = [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)]
    return helper.make_model(graph, opset_imports=imports, ir_version=8, functions=[FN])


def run(m):
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": np.zeros(3, np.float32)})[0]


wrong = {}
for domain in ("", "local"):
    given = model(domain)
    expected = run(given)
    got = run(optimize_onnx_model(onnx.ModelProto.FromString(given.SerializeToString())))
    wrong[domain] = not np.allclose(got, expected)
    print(f"{domain or 'ai.onnx'}.Mul: given {expected}, optimized {got}: {'WRONG' if wrong[domain] else 'same'}")
sys.exit(1 if not wrong[""] and wrong["local"] else 0)
