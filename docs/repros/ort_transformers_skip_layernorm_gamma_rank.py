"""onnxruntime 1.32.0's transformer optimizer (onnxruntime/transformers/fusion_skiplayernorm.py,
FusionSkipLayerNormalization, run by optimize_model for every BERT-like model type) turns
`LayerNormalization(Add(x, s), gamma, beta)` into `com.microsoft::SkipLayerNormalization(x, s, gamma, beta)` without
checking the rank of gamma and beta. LayerNormalization-17 broadcasts Scale and B (Operators.md: "tensors `Scale` and
`B` should be unidirectional broadcastable to tensor `X`"), so gamma of shape [1, 1, 8] is valid; the fused
op requires 1-D gamma, and onnxruntime fails at run time ("gamma is expected to have 1 dimension, got 3"). The input
is valid and onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

T = onnx.TensorProto.FLOAT
graph = helper.make_graph(
    [
        helper.make_node("Add", ["x", "s"], ["a"]),
        helper.make_node("LayerNormalization", ["a", "gamma", "beta"], ["y"], axis=-1, epsilon=1e-5),
    ],
    "g",
    [helper.make_tensor_value_info("x", T, [2, 3, 8]), helper.make_tensor_value_info("s", T, [2, 3, 8])],
    [helper.make_tensor_value_info("y", T, [2, 3, 8])],
    [
        numpy_helper.from_array(np.linspace(0.5, 1.5, 8, dtype=np.float32).reshape(1, 1, 8), "gamma"),
        numpy_helper.from_array(np.linspace(-0.1, 0.1, 8, dtype=np.float32).reshape(1, 1, 8), "beta"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
rng = np.random.default_rng(0)
feeds = {n: rng.standard_normal((2, 3, 8)).astype(np.float32) for n in ("x", "s")}
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
optimized = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0)
with __import__("tempfile").TemporaryDirectory() as d:
    optimized.save_model_to_file(d + "/m.onnx")  # adds the com.microsoft opset import
out = optimized.model
print([f"{n.domain}::{n.op_type}" for n in out.graph.node])
try:
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, str(exc).splitlines()[0][:300])
    sys.exit(1)
print("ok" if np.allclose(got, expected, atol=1e-5) else "BUG: values differ")
sys.exit(0 if np.allclose(got, expected, atol=1e-5) else 1)
