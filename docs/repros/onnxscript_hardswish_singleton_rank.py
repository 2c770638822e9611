"""onnxscript 0.7.2 rules `fuse_hardswish_rules` (rewriter/rules/common/_fuse_hardswish.py, exported, opt-in) fuse
`Div(Clip(Add(x, 3), 0, 6), 6)` into HardSigmoid and `Div(Mul(Clip(Add(x, 3), 0, 6), x), 6)` into HardSwish when each
constant is a one-element value near 3, 0, 6, 6 (`_ir_utils.is_singleton_value`, any rank). A `3` of shape [1, 1, 1]
next to `x: [2, 8]` makes the Add's output [1, 2, 8] (Broadcasting.md) and every value after it rank 3; the fused
HardSigmoid(x) / HardSwish(x) is [2, 8]. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.rules.common import fuse_hardswish_rules

graph = helper.make_graph(
    [
        helper.make_node("Add", ["x", "three"], ["a"]),
        helper.make_node("Clip", ["a", "zero", "six"], ["c"]),
        helper.make_node("Mul", ["c", "x"], ["m"]),
        helper.make_node("Div", ["m", "six"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 8])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 2, 8])],
    [
        numpy_helper.from_array(np.full((1, 1, 1), 3.0, np.float32), "three"),
        numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
        numpy_helper.from_array(np.array(6.0, np.float32), "six"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = rewrite(model, fuse_hardswish_rules())
print([n.op_type for n in out.graph.node])
x = (np.random.default_rng(0).standard_normal((2, 8)) * 4).astype(np.float32)
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
