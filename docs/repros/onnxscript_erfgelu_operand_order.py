"""onnxscript 0.7.2 optimize_for_ort, fuse_erfgelu (rewriter/ort_fusions/erfgelu.py).

y = 0.5 * x * (1 + erf(x / sqrt(2))) is fused into com.microsoft::Gelu when written
Add(Erf(.), 1), but not when the same Add is written Add(1, Erf(.)) (Add is commutative, Operators.md
Add: numpy-style broadcasting, no operand order), nor when the divisor sqrt(2) is the same value
unsqueezed to [1, 1, 1] (it broadcasts like the scalar). The rule set is built without the
rewriter's commute=True. onnxruntime computes all three forms alike. Exits 1 while a spelling is left unfused.
"""

import sys

import numpy as np
import onnx
import onnx_ir as ir
from onnx import TensorProto, helper, numpy_helper
from onnxscript.rewriter.ort_fusions import optimize_for_ort


def model(add_inputs, sqrt2_shape) -> onnx.ModelProto:
    g = helper.make_graph(
        [
            helper.make_node("Div", ["x", "sqrt2"], ["a"]),
            helper.make_node("Erf", ["a"], ["e"]),
            helper.make_node("Add", add_inputs, ["f"]),
            helper.make_node("Mul", ["x", "f"], ["h"]),
            helper.make_node("Mul", ["h", "half"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4, 8])],
        [
            numpy_helper.from_array(np.full(sqrt2_shape, np.sqrt(2), np.float32), "sqrt2"),
            numpy_helper.from_array(np.array(1.0, np.float32), "one"),
            numpy_helper.from_array(np.array(0.5, np.float32), "half"),
        ],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(m, full_check=True)
    return m


def ops(m):
    res = optimize_for_ort(ir.from_proto(m))
    out = ir.to_proto(res[0] if isinstance(res, tuple) else res)
    return [(n.domain + "::" if n.domain else "") + n.op_type for n in out.graph.node]


forms = {
    "Add(Erf, 1), sqrt2 scalar": model(["e", "one"], ()),
    "Add(1, Erf), sqrt2 scalar": model(["one", "e"], ()),
    "Add(Erf, 1), sqrt2 [1,1,1]": model(["e", "one"], (1, 1, 1)),
}
bad = 0
for label, m in forms.items():
    got = ops(m)
    print(f"{label}: {got}")
    bad += got != ["com.microsoft::Gelu"]
sys.exit(1 if bad else 0)
