"""onnxscript 0.7.2's default rule `cast_constant_of_shape` (rewriter/rules/common/_cast_constant_of_shape.py, run by
`rewrite` and `optimize`) turns `Cast(ConstantOfShape(s, value), to=T)` into `ConstantOfShape(s, value=T(value))`
for any T. ConstantOfShape's output types are fewer than Cast's: bfloat16 joins them at ConstantOfShape-20, the float8
types at 21 (Operators.md ConstantOfShape-9/20/21). At opset 18 the model below (a bfloat16 mask of x's shape, a graph
output) is valid; the rewritten ConstantOfShape-9 writes bfloat16, which the checker refuses ("output has unsupported
type"). (onnxruntime's Python binding cannot return a bfloat16 output, so the check is the checker's.) Exit 1 while the
bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxscript.rewriter import rewrite

graph = helper.make_graph(
    [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("ConstantOfShape", ["s"], ["c"], value=numpy_helper.from_array(np.array([0.5], np.float32))),
        helper.make_node("Cast", ["c"], ["y"], to=TensorProto.BFLOAT16),
    ],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("y", TensorProto.BFLOAT16, [2, 3])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = rewrite(model)
print([n.op_type for n in out.graph.node])
ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])  # onnxruntime loads the input
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001 - the checker's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
print("ok")
