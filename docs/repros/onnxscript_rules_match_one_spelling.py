"""onnxscript 0.7.2 rewrite rules that match one of several equivalent spellings only (rewriter/rules/common/):
- `gemm_to_matmul_add_rule` (also run by `optimize_for_ort`) names `alpha=1.0, beta=1.0` in its pattern, and the
  matcher does not take an omitted attribute for its schema default (Gemm: alpha = beta = 1.0): a Reshape -> Gemm ->
  Reshape written without alpha/beta is left as it is, the same model with them written is rewritten;
- `matmul_add_to_gemm_rule` matches Add(MatMul(a, b), c) but not Add(c, MatMul(a, b)) (Add is commutative);
- `add_0_rule` / `mul_by_1_rule` (opt-in) remove Add(x, 0) / Mul(x, 1) but not Add(0, x) / Mul(1, x).
Each pair computes the same values; exit 1 while a rule treats the two spellings differently."""

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnxscript import ir
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.ort_fusions import optimize_for_ort
from onnxscript.rewriter.rules import common

F = onnx.TensorProto.FLOAT


def model(nodes, inits, x_shape, y_shape):
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", F, x_shape)],
        [helper.make_tensor_value_info("y", F, y_shape)],
        [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()],
    )
    return onnx.shape_inference.infer_shapes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]))


def rgr(**attrs):
    nodes = [
        helper.make_node("Reshape", ["x", "s1"], ["xa"]),
        helper.make_node("Gemm", ["xa", "w", "b"], ["g"], **attrs),
        helper.make_node("Reshape", ["g", "s2"], ["y"]),
    ]
    inits = {
        "w": np.ones((4, 5), np.float32),
        "b": np.ones(5, np.float32),
        "s1": np.array([6, 4], np.int64),
        "s2": np.array([2, 3, 5], np.int64),
    }
    return model(nodes, inits, [2, 3, 4], [2, 3, 5])


def binary(op, const_first, value, extra=()):
    a, c = ("c", "x") if const_first else ("x", "c")
    return model([*extra, helper.make_node(op, [a, c], ["y"])], {"c": np.array(value, np.float32)}, [3, 4], [3, 4])


def mm_add(bias_first):
    args = ["b", "mm"] if bias_first else ["mm", "b"]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["mm"]), helper.make_node("Add", args, ["y"])]
    return model(nodes, {"w": np.ones((4, 5), np.float32), "b": np.ones(5, np.float32)}, [3, 4], [3, 5])


def ort_pipeline(m):
    r = optimize_for_ort(ir.from_proto(m))
    return ir.to_proto(r[0] if isinstance(r, tuple) else r)


def ops(m):
    return sorted(n.op_type for n in m.graph.node)


checks = [
    ("optimize_for_ort, Reshape-Gemm-Reshape", ort_pipeline, rgr(alpha=1.0, beta=1.0), rgr()),
    ("matmul_add_to_gemm_rule", lambda m: rewrite(m, [common.matmul_add_to_gemm_rule]), mm_add(False), mm_add(True)),
    ("add_0_rule", lambda m: rewrite(m, [common.add_0_rule]), binary("Add", False, 0.0), binary("Add", True, 0.0)),
    ("mul_by_1_rule", lambda m: rewrite(m, [common.mul_by_1_rule]), binary("Mul", False, 1.0), binary("Mul", True, 1.0)),
]
bug = False
for name, run, written, other in checks:
    a, b = ops(run(written)), ops(run(other))
    print(f"{name}: {a} vs {b}")
    bug |= a != b
if bug:
    print("BUG: a rule rewrites one spelling and leaves the equivalent one")
    sys.exit(1)
print("ok")
