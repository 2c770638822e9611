"""onnxscript 0.7.2 rules `FuseBatchNormIntoConv` / `IntoConvTranspose` / `IntoGemm`
(rewriter/rules/common/_fuse_batchnorm.py, in the default rule set, so `optimize` and `rewrite` apply them) fold a
BatchNormalization's scale, bias, `input_mean` and `input_var` into the producer's weight and bias. With
`training_mode = 1` (BatchNormalization-14/15) the op normalizes with the statistics of the batch it is given and
writes the updated running statistics to its two optional outputs; `input_mean` and `input_var` only feed those
outputs (Operators.md BatchNormalization). The rules' check never reads `training_mode`, so the fused Conv scales by
the running statistics: a different result. Here `y = BatchNormalization<training_mode=1>(Conv(x, W), ...)`, the
running outputs unread. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript import rewriter

rng = np.random.default_rng(0)
params = {
    "W": rng.standard_normal((4, 3, 1, 1)).astype(np.float32),
    "scale": np.full(4, 1.5, np.float32),
    "bias": np.full(4, 0.1, np.float32),
    "mean": np.full(4, 0.3, np.float32),
    "var": np.full(4, 2.0, np.float32),
}
graph = helper.make_graph(
    [
        helper.make_node("Conv", ["x", "W"], ["c"]),
        helper.make_node(
            "BatchNormalization", ["c", "scale", "bias", "mean", "var"], ["y", "run_mean", "run_var"], training_mode=1
        ),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, 4, 4])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 4, 4, 4])],
    [numpy_helper.from_array(v, k) for k, v in params.items()],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)], ir_version=8)
onnx.checker.check_model(model, full_check=True)  # the input is valid


def run(m):
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


x = rng.standard_normal((2, 3, 4, 4)).astype(np.float32)
want = run(model)
out = rewriter.rewrite(model)
print([n.op_type for n in out.graph.node])
got = run(out)
if not np.allclose(got, want, rtol=1e-4, atol=1e-4):
    print("BUG: max abs difference", float(np.abs(got - want).max()), "after the BatchNormalization was fused")
    sys.exit(1)
print("ok")
