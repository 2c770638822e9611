"""onnxruntime 1.32.0's transformer optimizer (FusionGelu, `transformers/fusion_gelu.py`, and FusionFastGelu,
`fusion_fastgelu.py`) matches `0.5 * x * (1 + Erf(x / sqrt(2)))` (and the tanh form) by the constants' values only:
a constant of higher rank than x (`sqrt2` of shape `[1, 1, 1]` with x `[N, 8]`) broadcasts the original output to
rank 3 (Operators.md Div/Mul: multidirectional broadcasting), and the fused `com.microsoft::Gelu(x)` keeps x's rank:
the output is `[N, 8]` where `[1, N, 8]` was computed and declared. The input is valid and onnxruntime runs it.
Exit 1 while the bug is present."""

import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 8] z) => (float[1, 2, 8] y) <float[1, 1, 1] sqrt2 = {1.4142135}, float one = {1}, float half = {0.5}> {
  a = Div (z, sqrt2)
  e = Erf (a)
  f = Add (e, one)
  h = Mul (z, f)
  y = Mul (h, half)
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"z": np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)}
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
optimized = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0)
with tempfile.TemporaryDirectory() as d:
    optimized.save_model_to_file(d + "/m.onnx")  # adds the com.microsoft opset import
out = optimized.model
print([f"{n.domain}::{n.op_type}" for n in out.graph.node])
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
print("unoptimized", expected.shape, "fused", got.shape)
if got.shape != expected.shape:
    print("BUG: the fused Gelu drops the rank the constant broadcast to")
    sys.exit(1)
print("ok")
