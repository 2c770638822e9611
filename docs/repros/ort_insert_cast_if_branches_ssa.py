"""onnxruntime 1.32.0 (CPU), the optimized model it saves (`optimized_model_filepath`) with every optimization
disabled (`ORT_DISABLE_ALL`; the same at `ORT_ENABLE_ALL`): `o = Add(t, 1)` in the main graph and a `Mul(h, o)` inside
each branch of an If, all float16. The CPU provider has no float16 Add / Mul kernel, so onnxruntime inserts Casts to
float around them (InsertCastTransformer, run at every level): the main graph's float Add writes
`InsertedPrecisionFreeCast_o` (then cast back to `o`), and the Cast each branch gets for its read of `o` writes that
same name again, shadowing an outer value, so the
saved model is invalid (checker: "Graph must be in single static assignment (SSA) form, however
'InsertedPrecisionFreeCast_o' has been used as output names multiple times": IR.md, names are unique across a graph
and its subgraphs). The input is valid and onnxruntime runs it. Exit 1 while the bug is present."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float16[N, 8] h, float16[N, 8] t, bool c) => (float16[N, 8] gl) <float16 one = {1}> {
  o = Add (t, one)
  gl = If (c) <then_branch = then () => (float16[N, 8] gt) { gt = Mul (h, o) },
               else_branch = else () => (float16[N, 8] ge) { ge = Mul (h, o) }>
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"h": np.ones((2, 8), np.float16), "t": np.full((2, 8), 2, np.float16), "c": np.array(True)}
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "optimized.onnx")
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.optimized_model_filepath = path
    ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)
    out = onnx.load(path)
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, " ".join(str(exc).split())[:220])
    sys.exit(1)
print("ok")
