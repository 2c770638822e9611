"""onnxsim.simplify(extra_optimizers=["pow2_to_mul"]): Pow(x, e) becomes Mul(x, x) for an exponent that is not 2.

Pow's exponent is a tensor read elementwise with multidirectional broadcasting (Operators.md Pow-15). The pass's own
header (onnxsim/passes/pow2_to_mul.h) scopes it to "a constant, single-element exponent equal to exactly 2.0". Two
models, each checked against onnxruntime running the input model:

- e = [2, 1, 3, 2] (four elements, only some equal to 2): the rewrite squares every element, 1 ** 1 and 3 ** 3 included;
- e = [[2], [2]] (every element 2, but of shape [2, 1]): Pow(x[3], e) is [2, 3]; Mul(x, x) is [3].

Exits 1 while either model's simplified output differs from the input's (values or shape), 0 once both are kept.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxsim
from onnx import TensorProto, helper, numpy_helper


def model(x_shape, e, y_shape):
    g = helper.make_graph(
        [helper.make_node("Pow", ["x", "e"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)],
        [numpy_helper.from_array(np.array(e, np.float32), "e")],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)], ir_version=8)


def run(m, x):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


bad = 0
for name, m, x in (
    ("e = [2, 1, 3, 2]", model([3, 4], [2.0, 1.0, 3.0, 2.0], [3, 4]), np.arange(1, 13, dtype=np.float32).reshape(3, 4)),
    ("e = [[2], [2]]", model([3], [[2.0], [2.0]], [2, 3]), np.array([1.0, 2.0, 3.0], np.float32)),
):
    onnx.checker.check_model(m, full_check=True)
    out, _ = onnxsim.simplify(m, extra_optimizers=["pow2_to_mul"])
    want, got = run(m, x), run(out, x)
    same = want.shape == got.shape and np.allclose(want, got)
    bad += not same
    ops = [n.op_type for n in out.graph.node]
    print(
        f"{name}: nodes after {ops}; input's output {want.shape} {want.ravel()[:4]}, simplified {got.shape} {got.ravel()[:4]}"
    )
sys.exit(1 if bad else 0)
