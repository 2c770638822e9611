"""onnxruntime 1.32.0's float16 conversion (`OnnxModel.convert_float_to_float16`, over `float16.convert_float_to_float16`)
on `y = Add(DequantizeLinear(q, s, z), x)` at opset 17: DequantizeLinear is not in `DEFAULT_OP_BLOCK_LIST`, so its
float `x_scale` initializer `s` becomes float16 and its output float16. Operators.md DequantizeLinear-13 (the version
opsets 13-18 use): `x_scale` is `tensor(float)` and `y` `tensor(float)`; float16 scales come with DequantizeLinear-19.
The converted model is refused by the checker and by onnxruntime. Exit 1 while the output is invalid."""

import sys

import onnx
import onnxruntime as ort
from onnxruntime.transformers.onnx_model import OnnxModel

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[4] x) => (float[4] y) <uint8[4] q = {0, 64, 128, 255}, float s = {0.5}, uint8 z = {128}> {
  d = DequantizeLinear (q, s, z)
  y = Add (d, x)
}""")
onnx.checker.check_model(model, full_check=True)
wrapped = OnnxModel(onnx.ModelProto.FromString(model.SerializeToString()))
wrapped.convert_float_to_float16(keep_io_types=True)
wrapped.topological_sort()  # the Casts are appended at the end; OnnxModel sorts before it saves
out = wrapped.model
print({i.name: onnx.TensorProto.DataType.Name(i.data_type) for i in out.graph.initializer})
try:
    onnx.checker.check_model(out, full_check=True)
    ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"])
except Exception as exc:  # noqa: BLE001
    print("BUG: the converted model is invalid:", str(exc).splitlines()[0][:200])
    sys.exit(1)
print("ok")
