"""onnxruntime 1.32.0's transformer optimizer (FusionConstantFold.fuse_1, `transformers/fusion_constant_fold.py`) on
`y = Transpose(w)`, `w` a 2-D float initializer and `y` a graph output that no node reads: fuse_1 looks for the
readers of the Transpose's output with `input_name_to_nodes[node.output[0]]` unguarded, and a value only the graph
output reads has none: `optimize_model` raises `KeyError: 'y'` (every model type that runs BertOnnxModel's
`fuse_constant_fold`). A graph output may be any value (IR.md §Graphs); the checker accepts the model and onnxruntime
runs it. Row 155 is the same unguarded lookup in fuse_2 (a Transpose pair). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] x) => (float[3, 2] y, float[2, 3] z) <float[2, 3] w = {1, 2, 3, 4, 5, 6}> {
  y = Transpose (w)
  z = Neg (x)
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.ones((2, 3), np.float32)}
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
try:
    out = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0).model
except KeyError as exc:
    print("BUG: optimize_model raised KeyError", exc)
    sys.exit(1)
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
same = all(np.array_equal(a, b) for a, b in zip(expected, got))
print("ok" if same else "BUG: values differ")
sys.exit(0 if same else 1)
