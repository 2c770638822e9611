"""onnxruntime 1.32.0's transformer optimizer (FusionConstantFold.fuse_2, `transformers/fusion_constant_fold.py`) on
`b = Transpose(Transpose(x, perm=[1, 0]), perm=[1, 0])` with `b` a graph output (the pair is the identity, so
removing it would be right): the fusion looks up the readers of the pair's output with `input_name_to_nodes[b]`
without a check, and a value only the graph output reads has none: `optimize_model` raises `KeyError: 'b'` (for
every model type). The input is valid and onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 8] x) => (float[N, 8] b) {
  a = Transpose <perm = [1, 0]> (x)
  b = Transpose <perm = [1, 0]> (a)
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 8)}
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
try:
    out = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0).model
except Exception as exc:  # noqa: BLE001
    print("BUG: optimize_model raised", type(exc).__name__, str(exc).splitlines()[0][:300])
    sys.exit(1)
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
print("ok" if np.array_equal(got, expected) else "BUG: values differ")
sys.exit(0 if np.array_equal(got, expected) else 1)
