"""onnxscript 0.7.2 onnxscript.version_converter.convert_version(model_proto, target) converts a ModelProto in place
but copies back only its graph: the nodes are rewritten to the target opset's spelling while opset_import keeps the
source opset. GridSample-16 mode "bilinear" at opset 19, converted to 20, comes out as mode "linear" (GridSample-20's
name) under opset 19, which onnxruntime refuses to load; the IR path (ir.Model) sets the import. Exit 1 while the bug
is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript
import onnxscript.version_converter
from onnx import parser

print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnxscript", onnxscript.__version__)
model = parser.parse_model("""<ir_version: 9, opset_import: ["" : 19]>
g (float[1,1,3,3] x, float[1,2,2,2] grid) => (float[1,1,2,2] y) {
  y = GridSample <mode = "bilinear"> (x, grid)
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3), "grid": np.zeros((1, 2, 2, 2), np.float32)}
before = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
onnxscript.version_converter.convert_version(model, 20)
imports = {o.domain: o.version for o in model.opset_import}
print("opset_import after converting to 20:", imports, "| node:", onnx.printer.to_text(model.graph.node[0]))
try:
    after = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
except Exception as exc:  # noqa: BLE001
    print("BUG: the converted model does not load:", str(exc).strip().splitlines()[0][-140:])
    sys.exit(1)
if imports.get("", imports.get("ai.onnx")) != 20:
    print("BUG: the model still imports opset", imports)
    sys.exit(1)
print("ok", np.allclose(before, after))
