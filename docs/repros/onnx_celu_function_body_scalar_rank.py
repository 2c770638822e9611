"""onnx 1.23.2's context-dependent function body of Celu-12 (the one `onnx.defs.get_schema("Celu", 12, "")` builds,
used for every model at ai.onnx opsets 12-27) writes `alpha` as a one-element 1-D tensor (`Constant <value:
float[1]>`), so on a scalar X the body computes a `[1]` tensor, while Celu's output has X's shape (Operators.md Celu:
elementwise). Celu-28's body writes it as a scalar (`value_float`). Any tool that expands the op into its body (onnx's
inliner with `inline_schema_functions=True`, a runtime without a Celu kernel) changes the output's shape; the checker
then rejects the declared scalar output. onnxruntime's Celu kernel gives a scalar. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx.inliner
import onnxruntime as ort

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 12]>
g (float x) => (float y) {
  y = Celu <alpha = 1.0> (x)
}""")
onnx.checker.check_model(model, full_check=True)
x = {"x": np.array(-1.0, np.float32)}
kernel = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0]
body = onnx.inliner.inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)
print("body:", [(n.op_type, list(n.output)) for n in body.graph.node])
expanded = ort.InferenceSession(body.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0]
print("Celu kernel:", kernel.shape, "function body:", expanded.shape)
if expanded.shape != kernel.shape:
    print("BUG: the function body changes a scalar Celu's output shape to", expanded.shape)
    sys.exit(1)
print("ok")
