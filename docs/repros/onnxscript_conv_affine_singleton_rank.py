"""onnxscript 0.7.2 rule `conv_affine_fusion_rule` (rewriter/rules/common/_fuse_conv_affine.py, exported, opt-in)
fuses `Add(Mul(Conv(x, w, b), scale), offset)` into one Conv when `scale` and `offset` are one-element constants
(`_ir_utils.get_singleton_value`, any rank). It writes the new bias as `b * scale + offset` and the weight as
`w * scale` at the constants' rank: with `scale` of shape [1, 1, 1, 1] (a broadcast spelling Broadcasting.md allows,
the Mul's output keeping the Conv's rank 4) the bias becomes [1, 1, 1, 4] and onnxruntime refuses to run the Conv
("bias must be a 1D tensor"); with a rank-5 scale the weight becomes rank 5 and the checker refuses it.
`affine_conv_fusion_rule` (the affine map before the Conv) reads its constants the same way. Exit 1 while the bug is
present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.rules.common import conv_affine_fusion_rule

rng = np.random.default_rng(0)
graph = helper.make_graph(
    [
        helper.make_node("Conv", ["x", "w", "b"], ["c"]),
        helper.make_node("Mul", ["c", "scale"], ["m"]),
        helper.make_node("Add", ["m", "offset"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 2, 5, 5])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 4, 3, 3])],
    [
        numpy_helper.from_array(rng.standard_normal((4, 2, 3, 3)).astype(np.float32), "w"),
        numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "b"),
        numpy_helper.from_array(np.full((1, 1, 1, 1), 2.0, np.float32), "scale"),
        numpy_helper.from_array(np.array(0.5, np.float32), "offset"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = rewrite(model, [conv_affine_fusion_rule])
print([n.op_type for n in out.graph.node], [list(t.dims) for t in out.graph.initializer])
x = rng.standard_normal((1, 2, 5, 5)).astype(np.float32)
want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
try:
    onnx.checker.check_model(out, full_check=True)
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
except Exception as exc:  # noqa: BLE001 - the checker's or onnxruntime's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
if want.shape != got.shape or not np.allclose(want, got, atol=1e-4):
    print("BUG: shape", want.shape, "->", got.shape)
    sys.exit(1)
print("ok")
