"""onnx's version converter, opset 9 -> 8, on `y = Reshape(x, Constant(value=int64 [6]))`: the registry adapts
Constant 9 -> 8 with ExtendSupportedTypes (`version_converter/convert.h`), which renames the Constant's output to
`s_intermediate_output`, declares it float and adds `Cast(to=INT64)` after it, but leaves the `value` tensor int64.
Operators.md Constant-1 (the version of opset 8) allows float16, float and double only; Constant-9 added the other
types. The converted model fails the checker ("output has unsupported type tensor(int64)"). Exit 1 while it does."""

import sys

import onnx
from onnx import version_converter

model = onnx.parser.parse_model("""<ir_version: 4, opset_import: ["" : 9]>
g (float[2, 3] x) => (float[6] y) {
  s = Constant <value = int64[1] {6}> ()
  y = Reshape (x, s)
}""")
onnx.checker.check_model(model, full_check=True)
out = version_converter.convert_version(model, 8)
print(onnx.printer.to_text(out.graph))
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001
    print("BUG: the converted model is invalid:", str(exc).splitlines()[0][:200])
    sys.exit(1)
print("ok")
