"""onnxruntime's static quantizer gives a float32 tensor of a tiny range scale 1.0: every value quantizes to 0.

``y = GlobalAveragePool(x)``, ``x: float[1, 2, 3, 3]`` fed values of magnitude about 1e-37 (IR.md: every finite
float is a valid value), opset 17. ``quantize_static`` (onnxruntime 1.32.0, QDQ, MinMax calibrated on the same feed)
computes ``scale = (rmax - rmin) / 255`` below float32's smallest normal and replaces it by 1.0
(``quant_utils.compute_scale_zp``: ``scale < finfo(float32).tiny``): the quantized model outputs 0 everywhere.
onnxruntime 1.32.0 keeps such a step for float16 (``smallest_subnormal``: "integer quantization divides FP32 data by
the scale"); a float32 subnormal scale divides float32 data just as well.

Needs onnx, onnxruntime, numpy. Exits 1 while the quantized output is 0 where the float output is not.
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

graph = helper.make_graph(
    [helper.make_node("GlobalAveragePool", ["x"], ["y"])],
    "tiny_range",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 1, 1])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
x = (np.random.default_rng(0).standard_normal((1, 2, 3, 3)) * 1e-37).astype(np.float32)


class Reader(quantization.CalibrationDataReader):
    def __init__(self):
        self.it = iter([{"x": x}])

    def get_next(self):
        return next(self.it, None)


logging.disable(logging.WARNING)
with tempfile.TemporaryDirectory() as d:
    src, out = os.path.join(d, "f.onnx"), os.path.join(d, "q.onnx")
    onnx.save(model, src)
    quantization.quantize_static(src, out, Reader())
    q = onnx.load(out)
scales = {t.name: float(numpy_helper.to_array(t)) for t in q.graph.initializer if t.name.endswith("scale")}


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


want, got = run(model), run(q)
print("scales", scales)
print("float", want.ravel(), "quantized", got.ravel())
sys.exit(1 if not got.any() and want.any() else 0)
