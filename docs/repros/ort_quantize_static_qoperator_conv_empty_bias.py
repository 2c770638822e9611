"""onnxruntime's static quantizer (QOperator format) crashes on ``Conv(x, w, "")``, which is ``Conv(x, w)``.

An optional input given as the empty name is "not provided" (IR.md, optional inputs). ``quantize_static``
(onnxruntime 1.32.0, ``QuantFormat.QOperator``, MinMax calibration on the feeds below) quantizes the two-input Conv
into QLinearConv; for the ``""`` spelling it takes the bias path and looks the bias ``""`` up as an initializer:
``AttributeError: 'NoneType' object has no attribute 'data_type'``. The QDQ format quantizes both spellings.

Needs onnx, onnxruntime, numpy. Exits 1 while the ``""`` spelling fails and the omitted one does not.
"""

import logging
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime import quantization

rng = np.random.default_rng(0)
feeds = [{"x": rng.standard_normal((1, 3, 8, 8)).astype(np.float32)} for _ in range(2)]


def model(conv_inputs):
    w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("Conv", conv_inputs, ["y"], pads=[1, 1, 1, 1])],
        "conv_empty_bias",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])],
        [w],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


class Reader(quantization.CalibrationDataReader):
    def __init__(self):
        self.it = iter(feeds)

    def get_next(self):
        return next(self.it, None)


def quantize_error(m):
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "f.onnx"), os.path.join(d, "q.onnx")
        onnx.save(m, src)
        try:
            quantization.quantize_static(src, out, Reader(), quant_format=quantization.QuantFormat.QOperator)
        except Exception as e:  # noqa: BLE001
            return f"{type(e).__name__}: {e}"
        onnx.checker.check_model(onnx.load(out), full_check=True)
    return None


logging.disable(logging.WARNING)
errors = {"Conv(x, w)": quantize_error(model(["x", "w"])), 'Conv(x, w, "")': quantize_error(model(["x", "w", ""]))}
for k, e in errors.items():
    print(f"{k}: {'quantized' if e is None else e}")
sys.exit(1 if errors["Conv(x, w)"] is None and errors['Conv(x, w, "")'] else 0)
