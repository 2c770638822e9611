"""onnx 1.23.2 onnx.compose.add_prefix(model, prefix, rename_inputs=False, rename_outputs=False) prefixes a main-graph
initializer but not the reads of it inside an If branch (an outer-scope reference, IR.md "Graphs": a subgraph may
read any value of an enclosing scope): add_prefix_graph recurses into the subgraphs before it records the
initializers' new names. The output no longer loads ("input 'w' ... is not output of any previous nodes"). The
default flags (inputs and outputs renamed too) fail alike. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx.compose
import onnxruntime as ort
from onnx import parser

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x, bool c) => (float[2] y) <float[2] w = {1, 2}> {
  y = If (c) <then_branch = t () => (float[2] a) { a = Add (x, w) }, else_branch = e () => (float[2] b) { b = Sub (x, w) }>
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.ones(2, np.float32), "c": np.array(True)}
print("input:", ort.InferenceSession(model.SerializeToString()).run(None, feeds)[0])
failed = False
for kwargs in ({"rename_inputs": False, "rename_outputs": False}, {}):
    out = onnx.compose.add_prefix(model, "p_", **kwargs)
    branch = out.graph.node[0].attribute[0].g.node[0]
    print(kwargs or "defaults", "| initializer:", out.graph.initializer[0].name, "| branch reads:", list(branch.input))
    try:
        onnx.checker.check_model(out, full_check=True)
    except onnx.checker.ValidationError as exc:
        print("BUG:", " ".join(str(exc).split())[:160])
        failed = True
sys.exit(1 if failed else 0)
