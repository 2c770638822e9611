"""onnxruntime 1.32.0's transformer optimizer (onnxruntime/transformers/onnx_model.py, OnnxModel.prune_graph, run by
BertOnnxModel.optimize) keeps a main-graph value that only a subgraph reads (a branch may read any name of the
enclosing scope, IR.md "Graphs") unless its producer itself holds subgraphs: it skips such nodes when it collects the
outputs to keep. Here `r` is produced by an If and read only inside a second If's branches: pruning removes the first
If and the graph input `x`, and the checker and onnxruntime reject the result ("Nodes in a graph must be
topologically sorted, however input 'r' ..."). A Relu in place of the first If is kept. The input is valid and
onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 4] x) => (float[2, 4] y) <bool t = {1}> {
  r = If (t) <then_branch = then0 () => (float[2, 4] r1) { r1 = Relu (x) },
              else_branch = other0 () => (float[2, 4] r2) { r2 = Sigmoid (x) }>
  y = If (t) <then_branch = then () => (float[2, 4] a) { a = Neg (r) },
              else_branch = other () => (float[2, 4] b) { b = Abs (r) }>
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)}
ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
out = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0).model
print("inputs:", [i.name for i in out.graph.input], "main-graph nodes:", [n.op_type for n in out.graph.node])
missing = {"x"} - {i.name for i in out.graph.input}
producers = {o for n in out.graph.node for o in n.output}
unproduced = [i for n in out.graph.node for i in n.input if i and i not in producers and i not in {"t"}]
if missing or unproduced:
    print(f"BUG: graph inputs removed {sorted(missing)}; main-graph inputs read but never produced {unproduced}")
    sys.exit(1)
print("ok")
