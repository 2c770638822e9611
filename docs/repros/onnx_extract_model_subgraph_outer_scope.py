"""onnx 1.23.2 onnx.utils.Extractor(model).extract_model(inputs, outputs) with the model's own inputs and outputs
(the whole model; no boundary cuts a subgraph, the case its docstring allows) drops a main-graph value read only
inside an If branch (an outer-scope reference): the reachability walk follows node inputs, never the subgraphs'
reads. Both an initializer and a node output read that way are lost; the output no longer loads. Upstream:
onnx/onnx#4090 (open). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx.utils
import onnxruntime as ort
from onnx import parser

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x, bool c) => (float[2] y) <float[2] w = {1, 2}> {
  r = Neg (x)
  y = If (c) <then_branch = t () => (float[2] a) { a = Add (r, w) }, else_branch = e () => (float[2] b) { b = Sub (r, w) }>
}""")
onnx.checker.check_model(model, full_check=True)
out = onnx.utils.Extractor(model).extract_model(["x", "c"], ["y"])
print("nodes:", [n.op_type for n in out.graph.node], "| initializers:", [t.name for t in out.graph.initializer])
try:
    onnx.checker.check_model(out, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG:", " ".join(str(exc).split())[:160])
    sys.exit(1)
feeds = {"x": np.ones(2, np.float32), "c": np.array(True)}
print("ok", ort.InferenceSession(out.SerializeToString()).run(None, feeds)[0])
