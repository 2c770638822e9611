"""onnxscript 0.7.2 optimize_for_ort() (TransposeMatMul1 and the other FusedMatMul rules,
rewriter/ort_fusions/fused_matmul_rule_sets.py) fuses y = MatMul(Transpose(a, perm=[0, 2, 1]), z) into
com.microsoft FusedMatMul(transA=1) whatever the element type; MatMul-13 takes int32/int64/uint32/uint64, FusedMatMul
only floating types (onnxruntime's contrib schema). An int64 model then no longer loads. Exit 1 while the bug is
present."""

import sys

import numpy as np
import onnx
import onnx_ir as ir
import onnxruntime as ort
from onnx import TensorProto, helper
from onnxscript.rewriter.ort_fusions import optimize_for_ort

graph = helper.make_graph(
    [helper.make_node("Transpose", ["a"], ["x"], perm=[0, 2, 1]), helper.make_node("MatMul", ["x", "z"], ["y"])],
    "g",
    [helper.make_tensor_value_info("a", TensorProto.INT64, [4, 5, 3]),
     helper.make_tensor_value_info("z", TensorProto.INT64, [4, 5, 6])],
    [helper.make_tensor_value_info("y", TensorProto.INT64, [4, 3, 6])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
result = optimize_for_ort(ir.from_proto(model))
out = ir.to_proto(result[0] if isinstance(result, tuple) else result)
print([(n.domain, n.op_type) for n in out.graph.node])
rng = np.random.default_rng(0)
feeds = {"a": rng.integers(-5, 5, (4, 5, 3)), "z": rng.integers(-5, 5, (4, 5, 6))}
want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
try:
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
except Exception as exc:  # noqa: BLE001 - onnxruntime's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
if not np.array_equal(want, got):
    print("BUG: other values")
    sys.exit(1)
print("ok")
