"""onnxscript 0.7.2 rule `matmul_add_to_gemm_rule` (rewriter/rules/common/_matmul_add_to_gemm.py, exported, opt-in)
rewrites Add(MatMul(a, b), c) into Gemm(a, b, c), checking only that a and b have rank 2. Add broadcasts
multidirectionally, Gemm's C only unidirectionally to [M, N] (Operators.md Gemm): a bias of shape [1, M, N] gives the
Add a rank-3 output and the Gemm a rank-2 one. The rewritten model fails the checker (declared output rank 3) and
onnxruntime refuses to run it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.rules.common import matmul_add_to_gemm_rule

rng = np.random.default_rng(0)
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["mm"]), helper.make_node("Add", ["mm", "b"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [3, 4])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 3, 5])],
    [
        numpy_helper.from_array(rng.standard_normal((4, 5)).astype(np.float32), "w"),
        numpy_helper.from_array(rng.standard_normal((1, 3, 5)).astype(np.float32), "b"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = rewrite(model, [matmul_add_to_gemm_rule])
print([n.op_type for n in out.graph.node])
x = rng.standard_normal((3, 4)).astype(np.float32)
want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
try:
    onnx.checker.check_model(out, full_check=True)
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
except Exception as exc:  # noqa: BLE001 - the checker's or onnxruntime's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
if want.shape != got.shape or not np.allclose(want, got, atol=1e-5):
    print("BUG: shape", want.shape, "->", got.shape)
    sys.exit(1)
print("ok")
