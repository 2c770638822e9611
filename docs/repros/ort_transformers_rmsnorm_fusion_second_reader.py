"""onnxruntime 1.32.0's transformer optimizer (FusionSimplifiedLayerNormalization,
`transformers/fusion_simplified_layernorm.py`) fuses an RMS norm `x * Reciprocal(Sqrt(ReduceMean(x^2) + eps)) * g`
into SimplifiedLayerNormalization without checking that its intermediate values have no other reader: with
`m = ReduceMean(...)` also read by a `Neg` writing a second graph output, the fused graph keeps the `Neg` but drops
`m`'s producer, and `optimize_model` fails in its own topological sort ("Graph is not a DAG"). The input is valid
and onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 4, 8] x) => (float[2, 4, 8] y, float[2, 4, 1] m_neg)
  <float two = {2}, float eps = {1e-6}, int64[1] ax = {-1}, float[8] g = {0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2}> {
  p = Pow (x, two)
  m = ReduceMean <keepdims = 1> (p, ax)
  a = Add (m, eps)
  r = Sqrt (a)
  rc = Reciprocal (r)
  n = Mul (x, rc)
  y = Mul (n, g)
  m_neg = Neg (m)
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.linspace(-1, 1, 64, dtype=np.float32).reshape(2, 4, 8)}
ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
try:
    out = optimize_model(model, "gpt2", num_heads=0, hidden_size=0, opt_level=0).model
except Exception as exc:  # noqa: BLE001
    print("BUG: optimize_model raised", type(exc).__name__, str(exc).splitlines()[0][:300])
    sys.exit(1)
print([n.op_type for n in out.graph.node])
print("ok")
