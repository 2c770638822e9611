"""onnxruntime 1.32.0's transformer optimizer (FusionQuickGelu, `transformers/fusion_quickgelu.py`; every model type)
on `y = x * Sigmoid(x * alpha)` with `alpha` a `float[1, 1, 1, 1]` initializer and `x: float[2, 4, 8]`: the spec
broadcasts the Mul multidirectionally, so `y` is `[1, 2, 4, 8]`. The fusion reads only alpha's value and writes
`QuickGelu(x, alpha=1.702)`, whose output has x's shape `[2, 4, 8]`: the declared output rank is lost (the same kind
as docs/found.md row 122, in another fusion). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 4, 8] x) => (float[1, 2, 4, 8] y) {
  a = Mul (x, alpha)
  s = Sigmoid (a)
  y = Mul (x, s)
}""")
model.graph.initializer.append(numpy_helper.from_array(np.full((1, 1, 1, 1), 1.702, np.float32), "alpha"))
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.random.default_rng(0).standard_normal((2, 4, 8)).astype(np.float32)}
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
got = run(optimized.model)
print([n.op_type for n in optimized.model.graph.node], "shape", got.shape, "expected", expected.shape)
ok = got.shape == expected.shape and np.allclose(got, expected, atol=1e-4)
print("ok" if ok else "BUG: the fused QuickGelu drops the rank alpha raises")
sys.exit(0 if ok else 1)
