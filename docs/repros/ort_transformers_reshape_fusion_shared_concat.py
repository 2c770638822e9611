"""onnxruntime 1.32.0's transformer optimizer (FusionReshape, `transformers/fusion_reshape.py`) on two Reshapes that
read one shape `c = Concat(Unsqueeze(Gather(Shape(x), 0)), Unsqueeze(Gather(Shape(x), 1)), [2, 4])`: for the first
(`t = Reshape(x, c)`) it writes the shape as a Constant and removes the Concat without checking that it has another
reader; the second (`r = Reshape(t, c)`, whose data is not `x`, so the fusion leaves it) still reads `c`, and
`optimize_model` fails in its own topological sort ("Graph is not a DAG"). The input is valid (a value may have any
number of readers) and onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 4, 8] x) => (float[N, 4, 2, 4] r)
  <int64 k0 = {0}, int64 k1 = {1}, int64[1] ax0 = {0}, int64[2] c24 = {2, 4}> {
  sh = Shape (x)
  d0 = Gather (sh, k0)
  d1 = Gather (sh, k1)
  u0 = Unsqueeze (d0, ax0)
  u1 = Unsqueeze (d1, ax0)
  c = Concat <axis = 0> (u0, u1, c24)
  t = Reshape (x, c)
  r = Reshape (t, c)
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.linspace(-1, 1, 64, dtype=np.float32).reshape(2, 4, 8)}
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
try:
    out = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0).model
except Exception as exc:  # noqa: BLE001
    print("BUG: optimize_model raised", type(exc).__name__, str(exc).splitlines()[0][:300])
    sys.exit(1)
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
print([n.op_type for n in out.graph.node])
print("ok" if np.array_equal(got, expected) else "BUG: values differ")
sys.exit(0 if np.array_equal(got, expected) else 1)
