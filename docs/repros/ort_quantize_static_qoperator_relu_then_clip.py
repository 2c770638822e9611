"""onnxruntime's static quantizer (QOperator format) drops a Clip after a Relu and keeps the Relu's wider range.

``y = Clip(Relu(Conv(x, w, b)), 0, 6)``, opset 13 (Clip's bounds as inputs). ``quantize_static`` (onnxruntime
1.32.0, ``QuantFormat.QOperator``, MinMax calibration on the feeds below) folds both activations into the
QLinearConv's output quantization, but the output scale it writes covers the Relu's calibrated range (about
[0, 15]), not the Clip's [0, 6]: outputs above 6 survive. ``Clip(Conv(...), 0, 6)`` alone is quantized right
(scale 6/255), and so is the QDQ format. Operators.md Clip: ``y = min(max(x, min), max)``.

Needs onnx, onnxruntime, numpy. Exits 1 while the quantized model's largest output exceeds the Clip's bound.
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
inits = [
    numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w"),
    numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "b"),
    numpy_helper.from_array(np.array(0.0, np.float32), "lo"),
    numpy_helper.from_array(np.array(6.0, np.float32), "hi"),
]


def model(relu_first):
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1])]
    if relu_first:
        nodes.append(helper.make_node("Relu", ["c"], ["r"]))
    nodes.append(helper.make_node("Clip", ["r" if relu_first else "c", "lo", "hi"], ["y"]))
    graph = helper.make_graph(
        nodes,
        "relu_then_clip",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 6, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 6, 6])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


feeds = [{"x": (rng.standard_normal((1, 3, 6, 6)) * 2).astype(np.float32)} for _ in range(2)]


class Reader(quantization.CalibrationDataReader):
    def __init__(self):
        self.it = iter(feeds)

    def get_next(self):
        return next(self.it, None)


def largest(relu_first):
    m = model(relu_first)
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "f.onnx"), os.path.join(d, "q.onnx")
        onnx.save(m, src)
        quantization.quantize_static(src, out, Reader(), quant_format=quantization.QuantFormat.QOperator)
        q = onnx.load(out)
    run = lambda mm: ort.InferenceSession(mm.SerializeToString(), providers=["CPUExecutionProvider"]).run(
        None, feeds[0]
    )[0]  # noqa: E731
    return float(run(m).max()), float(run(q).max()), [n.op_type for n in q.graph.node]


logging.disable(logging.WARNING)
results = {"Clip(Conv)": largest(False), "Clip(Relu(Conv))": largest(True)}
for k, (f, q, ops) in results.items():
    print(f"{k}: float max {f:.3f}, quantized max {q:.3f}, quantized ops {ops}")
sys.exit(1 if results["Clip(Relu(Conv))"][1] > 6.0 + 0.1 else 0)
