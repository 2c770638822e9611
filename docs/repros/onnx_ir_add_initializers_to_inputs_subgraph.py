"""onnx-ir 1.1.0 AddInitializersToInputsPass (onnx_ir/passes/common/constant_manipulation.py) adds the initializers
of every graph to that graph's inputs, subgraphs included (`for graph in model.graphs()`): an If branch then has an
input, while If passes its branches none (its shape inference: "Graph has 1 inputs but 0 were provided"; a Loop
body's inputs are its iteration number, condition and carried values, so an extra one is wrong there too), and
onnxruntime refuses the model. The input model
is valid and onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx_ir
import onnx_ir.passes.common
import onnxruntime as ort

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 4] x) => (float[2, 4] y) <bool t = {1}> {
  y = If (t) <then_branch = then () => (float[2, 4] a) <float k = {0.5}> { a = Mul (x, k) },
              else_branch = other () => (float[2, 4] b) { b = Neg (x) }>
}""")
onnx.checker.check_model(model, full_check=True)  # valid: a branch may hold initializers (IR.md, Graphs)
feeds = {"x": np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)}
ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)

ir_model = onnx_ir.serde.deserialize_model(model)
onnx_ir.passes.common.AddInitializersToInputsPass()(ir_model)
out = onnx_ir.serde.serialize_model(ir_model)
print(
    "then_branch inputs:", [i.name for a in out.graph.node[0].attribute if a.name == "then_branch" for i in a.g.input]
)
try:
    onnx.checker.check_model(out, full_check=True)
    ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, str(exc).splitlines()[0][:300])
    sys.exit(1)
print("ok")
