"""onnxruntime 1.32.0's transformer optimizer (FusionAttention, `transformers/fusion_attention.py`, model type `bert`)
on a post-LN BERT self-attention layer whose Softmax normalizes the 4-D scores `[N, heads, S, S]` over axis 1 (the
heads) instead of the last axis: valid (Operators.md Softmax-13, any axis in [-r, r-1]), a different computation, and
the fusion matches the Softmax by op type without reading its `axis`: it writes `com.microsoft` Attention, whose
softmax runs over the keys. Scale 1/sqrt(4) as Attention's default, so only the axis differs. Exit 1 while the bug is
present (0 when the fusion declines a Softmax not over the last axis)."""

import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

AXIS = int(sys.argv[1]) if len(sys.argv) > 1 else 1  # -1 or 3: the last axis, the fusion is right
rng = np.random.default_rng(0)
model = onnx.parser.parse_model(
    """<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 4, 8] x, int64[N, 4] mask) => (float[N, 4, 8] y) {
  ln = LayerNormalization <axis = -1, epsilon = 0.00001> (x, g, b)
  qm = MatMul (ln, wq)
  qa = Add (qm, bq)
  qr = Reshape (qa, shape4)
  qt = Transpose <perm = [0, 2, 1, 3]> (qr)
  km = MatMul (ln, wk)
  ka = Add (km, bk)
  kr = Reshape (ka, shape4)
  kt = Transpose <perm = [0, 2, 3, 1]> (kr)
  vm = MatMul (ln, wv)
  va = Add (vm, bv)
  vr = Reshape (va, shape4)
  vt = Transpose <perm = [0, 2, 1, 3]> (vr)
  qk = MatMul (qt, kt)
  qd = Div (qk, divisor)
  mu1 = Unsqueeze (mask, ax1)
  mu2 = Unsqueeze (mu1, ax2)
  mc = Cast <to = 1> (mu2)
  ms = Sub (one, mc)
  mm = Mul (ms, neg)
  sa = Add (qd, mm)
  sm = Softmax <axis = AXIS> (sa)
  ctx = MatMul (sm, vt)
  ct = Transpose <perm = [0, 2, 1, 3]> (ctx)
  cr = Reshape (ct, shape3)
  om = MatMul (cr, wo)
  oa = Add (om, bo)
  r = Add (oa, ln)
  y = LayerNormalization <axis = -1, epsilon = 0.00001> (r, g, b)
}""".replace("AXIS", str(AXIS))
)
consts = {
    **{f"w{p}": rng.standard_normal((8, 8)) * 0.3 for p in "qkvo"},
    **{f"b{p}": rng.standard_normal(8) * 0.1 for p in "qkvo"},
    "g": np.linspace(0.5, 1.5, 8),
    "b": np.linspace(-0.5, 0.5, 8),
    "divisor": np.array(2.0),
    "one": np.array(1.0),
    "neg": np.array(-10000.0),
}
for name, value in consts.items():
    model.graph.initializer.append(numpy_helper.from_array(np.asarray(value, np.float32), name))
for name, value in {"shape4": [0, 0, 2, 4], "shape3": [0, 0, 8], "ax1": [1], "ax2": [2]}.items():
    model.graph.initializer.append(numpy_helper.from_array(np.array(value, np.int64), name))
onnx.checker.check_model(model, full_check=True)

feeds = {
    "x": rng.standard_normal((2, 4, 8)).astype(np.float32),
    "mask": np.array([[1, 1, 1, 1], [1, 1, 1, 0]], np.int64),  # right padding, the fused mask index's contract
}
off = ort.SessionOptions()
off.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL


def run(m):
    return ort.InferenceSession(m.SerializeToString(), off, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


expected = run(model)
optimized = optimize_model(
    onnx.ModelProto.FromString(model.SerializeToString()), "bert", num_heads=0, hidden_size=0, opt_level=0
)
with tempfile.TemporaryDirectory() as d:
    optimized.save_model_to_file(d + "/o.onnx")  # adds the com.microsoft import
got = run(optimized.model)
attention = [n for n in optimized.model.graph.node if n.op_type == "Attention"]
scale = [a.f for n in attention for a in n.attribute if a.name == "scale"]
err = float(np.abs(got - expected).max())
print([n.op_type for n in optimized.model.graph.node], "scale attribute", scale or "absent", "max abs err", err)
ok = np.allclose(got, expected, rtol=1e-4, atol=1e-4)
print("ok" if ok else f"BUG: the fused Attention normalizes over the keys, the model's Softmax over axis {AXIS}")
sys.exit(0 if ok else 1)
