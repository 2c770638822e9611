"""onnxruntime 1.32.0's transformer optimizer (`OnnxModel.add_nodes` / `topological_sort`, `transformers/onnx_model.py`,
after FusionFastGelu `fusion_fastgelu.py`) on a tanh-GELU `gl` read only inside the branches of an If: the fused
`FastGelu` writing `gl` is appended after the If, and the sort that follows counts only a node's explicit inputs, not
the names its subgraphs read (IR.md: a subgraph may read values of the enclosing graph; nodes are topologically sorted,
those implicit reads included). The result is invalid (checker: "Nodes in a graph must be topologically sorted,
however input 'gl' of node … Neg is not output of any previous nodes"). The input is valid and onnxruntime runs it.
Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 8] x, bool c) => (float[N, 8] y)
  <float one = {1}, float half = {0.5}, float three = {3}, float coef = {0.044715}, float s2pi = {0.7978846}> {
  p = Pow (x, three)
  k = Mul (p, coef)
  i = Add (x, k)
  j = Mul (i, s2pi)
  t = Tanh (j)
  o = Add (t, one)
  h = Mul (x, half)
  gl = Mul (h, o)
  y = If (c) <then_branch = then () => (float[N, 8] yt) { yt = Neg (gl) },
              else_branch = else () => (float[N, 8] ye) { ye = Neg (gl) }>
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 8), "c": np.array(True)}
ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
out = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0).model
print("main graph:", [n.op_type for n in out.graph.node])
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, " ".join(str(exc).split())[:200])
    sys.exit(1)
print("ok")
