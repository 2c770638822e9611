"""onnxruntime 1.32.0's transformer optimizer (FusionSkipLayerNormalization, `transformers/fusion_skiplayernorm.py`;
every model type) on `LayerNormalization(Add(x, skip), g, b)` computed in double (LayerNormalization-17 takes
tensor(double)): the fusion does not read the element type and writes `com.microsoft::SkipLayerNormalization`, whose
schema constrains T to float, float16 and bfloat16, so onnxruntime refuses the optimized model ("Type Error: Type
'tensor(double)' of input parameter"). Exit 1 while the bug is present."""

import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (double[2, 4, 8] x, double[2, 4, 8] skip) => (double[2, 4, 8] y) {
  a = Add (x, skip)
  y = LayerNormalization <axis = -1, epsilon = 1e-5> (a, g, b)
}""")
model.graph.initializer.extend(
    [numpy_helper.from_array(np.linspace(0.5, 1.5, 8), "g"), numpy_helper.from_array(np.linspace(-0.5, 0.5, 8), "b")]
)
onnx.checker.check_model(model, full_check=True)
rng = np.random.default_rng(0)
feeds = {"x": rng.standard_normal((2, 4, 8)), "skip": rng.standard_normal((2, 4, 8))}


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]


expected = run(model)
optimized = optimize_model(
    onnx.ModelProto.FromString(model.SerializeToString()), "bert", num_heads=0, hidden_size=0, opt_level=0
)
with tempfile.TemporaryDirectory() as d:
    optimized.save_model_to_file(d + "/o.onnx")  # adds the com.microsoft import
print([n.op_type for n in optimized.model.graph.node])
try:
    got = run(optimized.model)
except Exception as e:  # noqa: BLE001
    print("BUG: the optimized model is refused:", str(e)[:200])
    sys.exit(1)
print("ok" if np.allclose(got, expected) else "BUG: different values")
sys.exit(0 if np.allclose(got, expected) else 1)
