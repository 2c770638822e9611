"""onnxruntime 1.32.0's transformer optimizer, model type `sam2` (FusionLayerNormalizationNCHW,
`transformers/fusion_layernorm.py`, run by `Sam2OnnxModel.fuse_layer_norm`) on a layer norm over the channel axis
of an NCHW tensor (`ReduceMean(axes=[1])`, `Sub`, `Pow 2`, `ReduceMean`, `Add eps`, `Sqrt`, `Div`, `Mul w`, `Add b`,
`w` and `b` initializers of shape `[C, 1, 1]`): the fusion writes `Transpose → LayerNormalization → Transpose` and
builds the LayerNormalization's bias initializer `b_NHWC` from the weight's values (`make_tensor(bias_input +
"_NHWC", …, weight)`), so every output element is off by `w[c] - b[c]`. The input is valid and onnxruntime runs
it. Exit 1 while the bug is present (also in 1.20.1, where the fusion came in)."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 4, 2, 3] x) => (float[1, 4, 2, 3] y) {
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
        numpy_helper.from_array(np.linspace(0.5, 2.0, 4, dtype=np.float32).reshape(4, 1, 1), "w"),
        numpy_helper.from_array(np.linspace(-3, 3, 4, dtype=np.float32).reshape(4, 1, 1), "b"),
    ]
)
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.random.default_rng(0).standard_normal((1, 4, 2, 3)).astype(np.float32)}
off = ort.SessionOptions()
off.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL


def run(m):
    return ort.InferenceSession(m.SerializeToString(), off, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


expected = run(model)
out = optimize_model(
    onnx.ModelProto.FromString(model.SerializeToString()), "sam2", num_heads=0, hidden_size=0, opt_level=0
).model
got = run(out)
err = float(np.max(np.abs(got - expected)))
print([n.op_type for n in out.graph.node], "max abs err", err)
print("ok" if err < 1e-4 else "BUG: the fused LayerNormalization's bias holds the weight's values")
sys.exit(0 if err < 1e-4 else 1)
