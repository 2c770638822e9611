"""onnxruntime's static quantizer (``quantize_static``) gives a Relu's (or Clip's) input the Relu's calibrated output
range when that input has one reading node (``BaseQuantizer.adjust_tensor_ranges``, ``quantization/base_quantizer.py``:
``len(input_name_to_nodes()[node.input[0]]) != 1``), without asking whether the input is also a graph output. A graph
output is read by the model's caller (IR.md §Graphs): quantized in [0, max], its negative values come back as 0.

Model (opset 17): ``t = Mul(x, 1)``, ``y = Relu(t)``, graph outputs ``y`` and ``t``, ``x: float[2, 3, 4]``; calibrated
on the feed it is run on. Expected: ``t`` within a quantization step of ``x`` (negative entries included). Exits 1 while
``t`` loses its negative values."""

import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import onnx.helper as h
import onnxruntime as ort
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, quantize_static

g = h.make_graph(
    [h.make_node("Mul", ["x", "one"], ["t"]), h.make_node("Relu", ["t"], ["y"])],
    "g",
    [h.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, 4])],
    [
        h.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 3, 4]),
        h.make_tensor_value_info("t", onnx.TensorProto.FLOAT, [2, 3, 4]),
    ],
    [onnx.numpy_helper.from_array(np.array(1, np.float32), "one")],
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
m.ir_version = 8
onnx.checker.check_model(m, full_check=True)
x = np.linspace(-1.5, 1.5, 24, dtype=np.float32).reshape(2, 3, 4)


class Reader(CalibrationDataReader):
    def __init__(self):
        self.it = iter([{"x": x}])

    def get_next(self):
        return next(self.it, None)


bad = False
for fmt in (QuantFormat.QOperator, QuantFormat.QDQ):
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "f.onnx", Path(d) / "q.onnx"
        onnx.save(m, src)
        quantize_static(str(src), str(out), Reader(), quant_format=fmt)
        y, t = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"]).run(["y", "t"], {"x": x})
    step = 3.0 / 255
    err = float(np.max(np.abs(t - x)))
    print(
        f"{fmt.name}: t min {t.min():.3f} (x min {x.min():.3f}), max |t - x| {err:.3f}, y max |y - relu(x)| "
        f"{float(np.max(np.abs(y - np.maximum(x, 0)))):.3f}"
    )
    bad |= err > 2 * step
if bad:
    print("BUG: the graph output t read by the Relu is quantized in the Relu's range [0, max]")
    sys.exit(1)
print("ok")
