"""onnxscript 0.7.2 rule `gemm_to_matmul_add_rule` (rewriter/rules/common/_gemm_to_matmul_add.py; exported, applied
by optimize_for_ort before its fusions) rewrites Reshape -> Gemm(alpha=1, beta=1) -> Reshape into MatMul + Add. Its
pattern names alpha and beta only, and onnxscript's matcher ignores attributes a pattern does not name, so a Gemm with
transB=1 (or transA=1) is rewritten as if B were not transposed: wrong values whenever B is square (the shape check
passes). onnxscript's default `optimize_for_ort` pipeline applies the rule first, so it computes the same wrong
values. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript import ir
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.ort_fusions import optimize_for_ort
from onnxscript.rewriter.rules.common import gemm_to_matmul_add_rule

rng = np.random.default_rng(0)
graph = helper.make_graph(
    [
        helper.make_node("Reshape", ["x", "s1"], ["xa"]),
        helper.make_node("Gemm", ["xa", "B", "C"], ["g"], alpha=1.0, beta=1.0, transB=1),
        helper.make_node("Reshape", ["g", "s2"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, 4])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 3, 4])],
    [
        numpy_helper.from_array(rng.standard_normal((4, 4)).astype(np.float32), "B"),
        numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "C"),
        numpy_helper.from_array(np.array([6, 4], np.int64), "s1"),
        numpy_helper.from_array(np.array([2, 3, 4], np.int64), "s2"),
    ],
)
model = onnx.shape_inference.infer_shapes(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]))
onnx.checker.check_model(model, full_check=True)  # the input is valid
x = rng.standard_normal((2, 3, 4)).astype(np.float32)


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


fused = optimize_for_ort(ir.from_proto(model))
outs = {
    "rewrite(model, [gemm_to_matmul_add_rule])": rewrite(model, [gemm_to_matmul_add_rule]),
    "optimize_for_ort(model)": ir.to_proto(fused[0] if isinstance(fused, tuple) else fused),
}
want, bug = run(model), False
for name, out in outs.items():
    err = float(np.abs(run(out) - want).max())
    print(name, [n.op_type for n in out.graph.node], "max abs error", err)
    bug |= err > 1e-4
if bug:
    print("BUG: the Gemm's transB=1 is dropped")
    sys.exit(1)
print("ok")
