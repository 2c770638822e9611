"""onnxruntime 1.32.0's transformer optimizer (FusionSkipLayerNormalization, `transformers/fusion_skiplayernorm.py`)
turns `LayerNormalization(Add(x, s), gamma, beta, axis=1)` into `com.microsoft::SkipLayerNormalization`, which
normalizes over the last axis only: the fusion never reads LayerNormalization's `axis` (Operators.md
LayerNormalization: the normalized shape is `X.shape[axis:]`; here `[3, 8]`, and gamma/beta `[8]` broadcast to it).
The fused model computes other values. The input is valid and onnxruntime runs it. onnxruntime's C++
SkipLayerNormFusion has the same gap (docs/found.md row 47). Exit 1 while the bug is present."""

import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3, 8] x, float[2, 3, 8] s) => (float[2, 3, 8] y) <float[8] gamma = {1, 1, 1, 1, 1, 1, 1, 1},
    float[8] beta = {0, 0, 0, 0, 0, 0, 0, 0}> {
  a = Add (x, s)
  y = LayerNormalization <axis = 1, epsilon = 1e-5> (a, gamma, beta)
}""")
onnx.checker.check_model(model, full_check=True)
so = ort.SessionOptions()
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # onnxruntime's own fusion has row 47
rng = np.random.default_rng(0)
feeds = {n: rng.standard_normal((2, 3, 8)).astype(np.float32) for n in ("x", "s")}
expected = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]
optimized = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0)
with tempfile.TemporaryDirectory() as d:
    optimized.save_model_to_file(d + "/m.onnx")  # adds the com.microsoft opset import
fused = optimized.model
print([f"{n.domain}::{n.op_type}" for n in fused.graph.node])
got = ort.InferenceSession(fused.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]
err = float(np.abs(got - expected).max())
print("max abs difference:", err)
if err > 1e-4:
    print("BUG: the fused SkipLayerNormalization normalizes over another axis")
    sys.exit(1)
print("ok")
