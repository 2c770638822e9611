"""onnxruntime 1.32.0's transformer optimizer, model type `phi` (`PhiOnnxModel.optimize` →
`Phi2PreProcessor.preprocess_onnx`, `transformers/onnx_model_phi.py`): `for func in self.model.functions` where
`self.model` is an `OnnxModel` (`DynamoOnnxHelper.__init__`), whose `functions` is a method, not the ModelProto's
field: `optimize_model(m, "phi", …)` raises TypeError on every model, with or without local functions. Exit 1 while
the bug is present."""

import sys

import onnx
from onnxruntime.transformers.optimizer import optimize_model

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] x) => (float[2, 3] y) {
  y = Relu (x)
}""")
try:
    optimize_model(model, "phi", num_heads=2, hidden_size=4, opt_level=0)
except TypeError as e:
    print("BUG: optimize_model(..., 'phi') raises TypeError:", e)
    sys.exit(1)
print("ok")
