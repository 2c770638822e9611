"""onnxruntime 1.32.0's transformer optimizer (FusionSimplifiedLayerNormalization,
`transformers/fusion_simplified_layernorm.py`; every model type) on an RMS norm over a non-last axis:
`y = x / Sqrt(ReduceMean(Pow(x, 2), axes=[1], keepdims=1) + eps) * w`, `x: float[2, 4, 3]`, `w: float[3]` (`two`, `eps` initializers). The fusion checks
only that `axes` has one element (its comment: "must refer only to the last dimension") and writes
`SimplifiedLayerNormalization(x, w, axis=1)`, which normalises over axes 1 … rank-1 (dims 4 and 3 together), not
axis 1 alone. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 4, 3] x) => (float[2, 4, 3] y) {
  p = Pow (x, two)
  v = ReduceMean <axes = [1], keepdims = 1> (p)
  ve = Add (v, eps)
  sd = Sqrt (ve)
  n = Div (x, sd)
  y = Mul (n, w)
}""")
model.graph.initializer.extend(
    [
        numpy_helper.from_array(np.linspace(0.5, 2.0, 3, dtype=np.float32), "w"),
        numpy_helper.from_array(np.array(2.0, np.float32), "two"),
        numpy_helper.from_array(np.array(1e-6, np.float32), "eps"),
    ]
)
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.random.default_rng(0).standard_normal((2, 4, 3)).astype(np.float32)}
off = ort.SessionOptions()
off.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL


def run(m):
    return ort.InferenceSession(m.SerializeToString(), off, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


expected = run(model)
optimized = optimize_model(
    onnx.ModelProto.FromString(model.SerializeToString()), "bert", num_heads=0, hidden_size=0, opt_level=0
)
with __import__("tempfile").TemporaryDirectory() as d:
    optimized.save_model_to_file(d + "/o.onnx")  # adds the com.microsoft import
out = optimized.model
err = float(np.max(np.abs(run(out) - expected)))
print([(n.op_type, [(a.name, onnx.helper.get_attribute_value(a)) for a in n.attribute]) for n in out.graph.node])
print("max abs err", err)
print("ok" if err < 1e-4 else "BUG: SimplifiedLayerNormalization(axis=1) normalises over axes 1..rank-1")
sys.exit(0 if err < 1e-4 else 1)
