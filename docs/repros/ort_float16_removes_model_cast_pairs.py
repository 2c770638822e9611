"""onnxruntime 1.32.0's float16 conversion entry point `OnnxModel.convert_float_to_float16`
(`transformers/onnx_model.py`) ends with `remove_cascaded_cast_nodes()`, which rewires every Cast whose input is
another Cast to read the first Cast's input, in the whole model: not only the Casts the conversion inserted but the
model's own. A Cast pair is no identity when the middle type does not hold every value (Operators.md Cast: float to
int32 truncates toward zero; int8 to bool maps every non-zero to true). `remove_cascaded_cast_nodes`'s own docstring
says it "might introduce semantic change" and is meant for post-processing of mixed precision conversion.
Here `t = Cast(Cast(x, to=INT32), to=FLOAT)` (truncation, x float) and `b = Cast(Cast(k, to=BOOL), to=INT8)`.
Exit 1 while the converted model computes other values."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.onnx_model import OnnxModel

model = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[4] x, int8[4] k) => (float[4] t, int8[4] b) {
  xi = Cast <to = 6> (x)
  t = Cast <to = 1> (xi)
  kb = Cast <to = 9> (k)
  b = Cast <to = 3> (kb)
}""")
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.array([0.5, 1.7, -2.5, 3.2], np.float32), "k": np.array([0, 1, 2, 3], np.int8)}
run = lambda m: ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)  # noqa: E731
expected = run(model)
wrapped = OnnxModel(onnx.ModelProto.FromString(model.SerializeToString()))
wrapped.convert_float_to_float16(keep_io_types=True)
got = run(wrapped.model)
print("expected", [e.tolist() for e in expected], "\ngot     ", [g.tolist() for g in got])
print("nodes after:", [n.op_type for n in wrapped.model.graph.node])
bad = not all(np.array_equal(np.asarray(e, np.float64), np.asarray(g, np.float64)) for e, g in zip(expected, got))
print("BUG: the model's own Cast pairs were removed" if bad else "ok")
sys.exit(1 if bad else 0)
