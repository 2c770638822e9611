"""onnxscript 0.7.2 optimize_for_ort, rule FusedMatMulDiv1 (rewriter/ort_fusions/fused_matmul_rule_sets.py).

Div(MatMul(q, k), c) with c a one-element constant: check() accepts any c of size 1, rewrite() computes
float(value) and 1 / c. Two valid models make the pass raise:
  (a) c of shape [1, 1, 1, 1] (a size-1 divisor of the same rank, broadcasts like a scalar):
      TypeError: only 0-dimensional arrays can be converted to Python scalars;
  (b) c = 0 (Div by zero is defined for floats: inf/nan): ZeroDivisionError.
Expected: an optimized model (or the Div left alone). Exits 1 while either crash is present.
"""

import sys

import numpy as np
import onnx
import onnx_ir as ir
from onnx import TensorProto, helper, numpy_helper
from onnxscript.rewriter.ort_fusions import optimize_for_ort


def model(c: np.ndarray) -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("MatMul", ["q", "k"], ["s"]), helper.make_node("Div", ["s", "c"], ["d"])],
        "g",
        [helper.make_tensor_value_info("q", TensorProto.FLOAT, [1, 2, 4, 8]),
         helper.make_tensor_value_info("k", TensorProto.FLOAT, [1, 2, 8, 4])],
        [helper.make_tensor_value_info("d", TensorProto.FLOAT, [1, 2, 4, 4])],
        [numpy_helper.from_array(c, "c")],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(m, full_check=True)
    return m


bad = 0
for label, c in [("scale [1,1,1,1]", np.full((1, 1, 1, 1), 2.0, np.float32)), ("scale 0", np.array(0.0, np.float32))]:
    try:
        optimize_for_ort(ir.from_proto(model(c)))
        print(f"{label}: ok")
    except Exception as e:  # the pass's own failure is the bug
        cause = e
        while cause.__cause__ is not None:
            cause = cause.__cause__
        print(f"{label}: {type(e).__name__}; cause {type(cause).__name__}: {cause}")
        bad += 1
sys.exit(1 if bad else 0)
