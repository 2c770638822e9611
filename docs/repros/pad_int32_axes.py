"""onnx shape inference rejects Pad-18 with int32 axes, which Pad-18's schema allows (Tind: int32 or int64)."""

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[4, 6] x) => (float[4, 9] y) {
    p = Constant<value = int64[2] {1, 2}>()
    a = Constant<value = int32[1] {1}>()
    y = Pad(x, p, , a)
}"""
m = onnx.parser.parse_model(TEXT)
print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
onnx.checker.check_model(m)  # structure: fine
x = np.arange(24, dtype=np.float32).reshape(4, 6)
s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
print("onnxruntime output shape:", s.run(None, {"x": x})[0].shape)
try:
    onnx.shape_inference.infer_shapes(m, strict_mode=True)
    print("shape inference: ok")
except Exception as e:  # noqa: BLE001
    print("shape inference:", type(e).__name__, e)
