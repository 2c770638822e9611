"""onnxscript 0.7.2 rules `expand_before_binary_op_rules` (rewriter/rules/common/_remove_expand_before_binary_op.py,
exported, opt-in) drop the Expand in `Add(x, Expand(b, s))` when each dim of the constant `s` is 1 or already equals
`x`'s or `b`'s dim at the same place from the right. They never compare `len(s)` with the operands' ranks: Expand's
output rank is max(rank(b), len(s)) (Operators.md Expand-8/13), so `s = [1, 2, 8]` makes the Add's output [1, 2, 8]
where `Add(x, b)` gives [2, 8]. The rewritten model computes a value of another rank (the declared output fails the
checker's inference, the run's shape differs). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.rules.common import expand_before_binary_op_rules

rng = np.random.default_rng(0)
graph = helper.make_graph(
    [helper.make_node("Expand", ["b", "s"], ["e"]), helper.make_node("Add", ["x", "e"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 8])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 2, 8])],
    [
        numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "b"),
        numpy_helper.from_array(np.array([1, 2, 8], np.int64), "s"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = rewrite(model, expand_before_binary_op_rules)
print([n.op_type for n in out.graph.node])
x = rng.standard_normal((2, 8)).astype(np.float32)
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
