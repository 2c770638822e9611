"""onnx-ir 1.1.0 IdentityEliminationPass (onnx_ir/passes/common/identity_elimination.py) on `q = Relu(d)`,
`y = Identity(q)` with both `y` and `q` graph outputs: the pass keeps an Identity between two graph-interface values
only when its input is a graph input or an initializer, not when it is another graph output; it removes the Identity
and renames `q` to `y`, so the model's outputs become `(y, y)`: the output `q` is gone (and the outputs' names
repeat). The input is valid (a value may be a graph output and be read). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx_ir
import onnx_ir.passes.common
import onnxruntime as ort

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 8] d) => (float[N, 8] y, float[N, 8] q) {
  q = Relu (d)
  y = Identity (q)
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"d": np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 8)}
ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)

ir_model = onnx_ir.serde.deserialize_model(model)
onnx_ir.passes.common.IdentityEliminationPass()(ir_model)
out = onnx_ir.serde.serialize_model(ir_model)
names = [o.name for o in out.graph.output]
print("graph outputs before: ['y', 'q'], after:", names)
if names != ["y", "q"]:
    print("BUG: the graph outputs changed")
    sys.exit(1)
print("ok")
