"""onnxscript 0.7.2 rewrite rule CastCast (rewriter/rules/common/_basic_rules.py, in the default rules `optimize`
and `rewriter.rewrite` apply): `Cast(Cast(x, to=FLOAT), to=FLOAT16)` becomes `Cast(x, to=FLOAT16)` for the
(FLOAT, FLOAT16) and (FLOAT, BFLOAT16) pairs whatever x's own type. For x float (or narrower) the first Cast is
exact, but for x double, int32 or int64 it rounds: the model rounds twice (to float, then to float16; Operators.md
Cast: each Cast converts its input), the rewrite once. For x = 1 + 2^-11 + 2^-40 (double) the float step gives
1 + 2^-11, a tie in float16, which rounds to even: 1.0; rounded once, x is above the tie: 1 + 2^-10. onnx's
reference evaluator (which casts with numpy / ml_dtypes, one rounding per Cast) gives 1.0 on the model and
1.0009765625 on the rewritten one; int64 2^24 + 2^16 + 1 to bfloat16 likewise (16777216 vs 16908288).
(onnxruntime's CPU Cast goes through float for these targets, so it computes 1.0 for both.) Exit 1 while present."""

import sys

import numpy as np
import onnx
import onnxscript
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator


def model(src, dst):
    nodes = [
        helper.make_node("Cast", ["x"], ["m"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["m"], ["y"], to=dst),
        helper.make_node("Cast", ["y"], ["z"], to=TensorProto.DOUBLE),  # exact: compares in double
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", src, [1])],
        [helper.make_tensor_value_info("z", TensorProto.DOUBLE, [1])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)


bad = False
for src, x, dst in (
    (TensorProto.DOUBLE, np.array([1 + 2**-11 + 2**-40], np.float64), TensorProto.FLOAT16),
    (TensorProto.INT64, np.array([2**24 + 2**16 + 1], np.int64), TensorProto.BFLOAT16),
):
    m = model(src, dst)
    onnx.checker.check_model(m, full_check=True)
    out = onnxscript.optimizer.optimize(m)
    want = ReferenceEvaluator(m).run(None, {"x": x})[0]
    got = ReferenceEvaluator(out).run(None, {"x": x})[0]
    names = (TensorProto.DataType.Name(src), TensorProto.DataType.Name(dst))
    print(
        names,
        "casts before:",
        sum(n.op_type == "Cast" for n in m.graph.node),
        "after:",
        sum(n.op_type == "Cast" for n in out.graph.node),
        want,
        got,
    )
    if not np.array_equal(want, got):
        print(f"BUG: {names[0]} -> FLOAT -> {names[1]} folded into one Cast: {got[0]!r}, the model gives {want[0]!r}")
        bad = True
sys.exit(1 if bad else 0)
