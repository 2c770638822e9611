"""onnxruntime 1.32.0's transformer optimizer (FusionLayerNormalization, `transformers/fusion_layernorm.py`; every
model type: `bert`, `gpt2`, `vit` …, and `mmdit`, which also skips the weight-rank check) on a layer norm over a
non-last axis: `ReduceMean(axes=[1])`, `Sub`, `Pow 2`, `ReduceMean(axes=[1])`, `Add eps`, `Sqrt`, `Div`, `Mul w`,
`Add b` over `x: float[1, 4, 4]`, `w`, `b: float[4]` (the spec broadcasts them along the last axis). The fusion never
reads the ReduceMean `axes` and writes `LayerNormalization(x, w, b)` with the default axis -1: it normalises over the
last axis instead of axis 1. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 4, 4] x) => (float[1, 4, 4] y) {
  m = ReduceMean <axes = [1]> (x)
  d = Sub (x, m)
  two = Constant <value = float {2.0}> ()
  p = Pow (d, two)
  v = ReduceMean <axes = [1]> (p)
  eps = Constant <value = float {1e-6}> ()
  ve = Add (v, eps)
  sd = Sqrt (ve)
  n = Div (d, sd)
  nw = Mul (n, w)
  y = Add (nw, b)
}""")
model.graph.initializer.extend(
    [
        numpy_helper.from_array(np.linspace(0.5, 2.0, 4, dtype=np.float32), "w"),
        numpy_helper.from_array(np.linspace(-1, 1, 4, dtype=np.float32), "b"),
    ]
)
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.random.default_rng(0).standard_normal((1, 4, 4)).astype(np.float32)}
off = ort.SessionOptions()
off.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL


def run(m):
    return ort.InferenceSession(m.SerializeToString(), off, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


expected = run(model)
bad = []
for model_type in ("bert", "mmdit"):
    out = optimize_model(
        onnx.ModelProto.FromString(model.SerializeToString()), model_type, num_heads=0, hidden_size=0, opt_level=0
    ).model
    err = float(np.max(np.abs(run(out) - expected)))
    print(model_type, [n.op_type for n in out.graph.node], "max abs err", err)
    if err >= 1e-4:
        bad.append(model_type)
print("ok" if not bad else f"BUG ({', '.join(bad)}): the fused LayerNormalization normalises over the last axis")
sys.exit(1 if bad else 0)
