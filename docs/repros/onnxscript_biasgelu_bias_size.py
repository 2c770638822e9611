"""onnxscript 0.7.2 optimize_for_ort() (BiasGeluFusion, rewriter/ort_fusions/bias_gelu.py) fuses Gelu(Add(x, b))
into com.microsoft BiasGelu when `b` has rank 1, without checking that its size is x's last dim. A bias of shape
[1] broadcasts under Add (multidirectional broadcasting), but onnxruntime's BiasGelu kernel wants it [hidden]:
the optimized model fails to run where the input model runs. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript import ir
from onnxscript.rewriter.ort_fusions import optimize_for_ort

graph = helper.make_graph(
    [helper.make_node("Add", ["x", "b"], ["a"]), helper.make_node("Gelu", ["a"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 8])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 8])],
    [numpy_helper.from_array(np.array([0.25], np.float32), "b")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
result = optimize_for_ort(ir.from_proto(model))
out = ir.to_proto(result[0] if isinstance(result, tuple) else result)
print([(n.domain, n.op_type) for n in out.graph.node])
x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
try:
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
except Exception as exc:  # noqa: BLE001 - onnxruntime's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
if not np.allclose(want, got, atol=1e-5):
    print("BUG: max abs error", float(np.abs(want - got).max()))
    sys.exit(1)
print("ok")
