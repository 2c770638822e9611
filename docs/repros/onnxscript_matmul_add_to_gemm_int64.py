"""onnxscript 0.7.2 rule `matmul_add_to_gemm_rule` (opt-in, rewriter/rules/common/_matmul_add_to_gemm.py) turns an
int64 MatMul + Add into Gemm. Gemm-13 allows int64 in the spec, but onnxruntime's CPU provider registers Gemm for
float and double only (MatMul has int32/int64/uint32/uint64 kernels), so the rewritten model no longer loads where the
input model runs. The rule checks ranks only, not the element type. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.rules.common import matmul_add_to_gemm_rule

I64 = onnx.TensorProto.INT64
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["mm"]), helper.make_node("Add", ["mm", "b"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", I64, [3, 4])],
    [helper.make_tensor_value_info("y", I64, [3, 5])],
    [
        numpy_helper.from_array(np.arange(20, dtype=np.int64).reshape(4, 5) - 9, "w"),
        numpy_helper.from_array(np.arange(5, dtype=np.int64), "b"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)
out = rewrite(model, [matmul_add_to_gemm_rule])
print([n.op_type for n in out.graph.node])
x = np.arange(12, dtype=np.int64).reshape(3, 4)
want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
try:
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
except Exception as exc:  # noqa: BLE001 - onnxruntime's refusal is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
print("ok" if np.array_equal(want, got) else "values differ")
