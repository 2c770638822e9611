"""onnxscript 0.7.2's optimize_for_ort (SDPA fusion `rewriter/ort_fusions/sdpa.py`: `check` takes the scale through
`_ir_utils.get_singleton_value`, any one-element tensor whatever its rank; then the fusions that
rewrite SDPA) on scaled dot-product attention `MatMul(Softmax(Add(Div(MatMul(q, Transpose(k)), scale), mask)), v)`
whose `scale` is a one-element constant of shape `[1, 1, 1, 1, 1]`: Div broadcasts multidirectionally (Operators.md,
Broadcasting), so the scores and the output get rank 5 (`y: [1, N, 2, 4, 8]`); the fused graph treats `scale` as a
scalar and its output has rank 4 (`[N, 2, 4, 8]`). The input is valid and onnxruntime runs it. Exit 1 while the bug
is present."""

import sys

import numpy as np
import onnx
import onnx_ir as ir
import onnxruntime as ort
from onnxscript.rewriter.ort_fusions import optimize_for_ort

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 2, 4, 8] q, float[2, 2, 4, 8] k, float[2, 2, 4, 8] v, float[4, 4] mask) => (float[1, 2, 2, 4, 8] y)
  <float[1, 1, 1, 1, 1] scale = {2.828427}> {
  kt = Transpose <perm = [0, 1, 3, 2]> (k)
  s = MatMul (q, kt)
  d = Div (s, scale)
  a = Add (d, mask)
  w = Softmax <axis = -1> (a)
  y = MatMul (w, v)
}""")
onnx.checker.check_model(model, full_check=True)
rng = np.random.default_rng(0)
feeds = {n: rng.standard_normal((2, 2, 4, 8), dtype=np.float32) for n in "qkv"}
feeds["mask"] = np.zeros((4, 4), np.float32)
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
optimized, _ = optimize_for_ort(ir.from_proto(model))
out = ir.to_proto(optimized)
print("ops:", [n.op_type for n in out.graph.node])
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
print("shape:", got.shape, "expected", expected.shape)
same = got.shape == expected.shape and np.allclose(got, expected, atol=1e-5)
print("ok" if same else "BUG: the fused output differs")
sys.exit(0 if same else 1)
