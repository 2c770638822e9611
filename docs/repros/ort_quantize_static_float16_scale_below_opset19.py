"""onnxruntime's static quantizer writes float16 scales into QuantizeLinear / DequantizeLinear of an opset below 19.

``y = MatMul(x, w)``, ``x: float16[N, 4]``, ``w`` a ``float16[4, 3]`` initializer, opset 17. Operators.md
QuantizeLinear-13 / DequantizeLinear-13 take ``x_scale`` / ``y_scale`` as ``tensor(float)``; float16 scales (and a
float16 ``x`` for QuantizeLinear) are allowed from opset 19. ``quantize_static`` (onnxruntime 1.32.0, QDQ, MinMax,
calibrated on the feeds below) keeps the model's opset 17 and writes float16 scales: the checker refuses the
output and onnxruntime will not load it. ``quant_utils.update_opset_version`` raises the opset for float8
weights (to 19) and below 10 (to 11), not for a float16 model.

Needs onnx, onnxruntime, numpy. Exits 1 while the quantized model is invalid.
"""

import logging
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime import quantization

rng = np.random.default_rng(0)
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["y"])],
    "float16_matmul",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT16, ["N", 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT16, ["N", 3])],
    [numpy_helper.from_array(rng.standard_normal((4, 3)).astype(np.float16), "w")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
feeds = [{"x": rng.standard_normal((n, 4)).astype(np.float16)} for n in (2, 3)]


class Reader(quantization.CalibrationDataReader):
    def __init__(self):
        self.it = iter(feeds)

    def get_next(self):
        return next(self.it, None)


logging.disable(logging.WARNING)
with tempfile.TemporaryDirectory() as d:
    src, out = os.path.join(d, "f.onnx"), os.path.join(d, "q.onnx")
    onnx.save(model, src)
    quantization.quantize_static(src, out, Reader(), quant_format=quantization.QuantFormat.QDQ)
    q = onnx.load(out)

kinds = sorted(
    {
        (n.op_type, onnx.helper.tensor_dtype_to_np_dtype(t.data_type).name)
        for n in q.graph.node
        if n.op_type in ("QuantizeLinear", "DequantizeLinear")
        for t in q.graph.initializer
        if t.name == n.input[1]
    }
)
print("onnxruntime", ort.__version__, "opset", q.opset_import[0].version, "scales:", kinds)
problems = []
try:
    onnx.checker.check_model(q, full_check=True)
except Exception as exc:  # noqa: BLE001
    problems.append(f"checker: {str(exc).splitlines()[0][:160]}")
try:
    ort.InferenceSession(q.SerializeToString(), providers=["CPUExecutionProvider"])
except Exception as exc:  # noqa: BLE001
    problems.append(f"onnxruntime: {str(exc)[:200]}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
