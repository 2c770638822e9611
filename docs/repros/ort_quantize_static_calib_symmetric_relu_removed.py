"""onnxruntime's static quantizer removes a Relu under a symmetric calibrated range (found.md row 1454).

``quantize_static(..., extra_options={"CalibTensorRangeSymmetric": True})`` makes the calibrator widen every tensor's
range to be symmetric around 0 (``quantize.py``'s docstring: "the final range of tensor during calibration will be
explicitly set to symmetric to central point 0"). A Relu (or Clip) after a quantized Conv is removed only when the
output's quantization clips as the activation does: asymmetric ranges (``operators/activation.py``:
``QDQRemovableActivation`` and ``QLinearActivation`` test ``quantizer.is_activation_symmetric``, microsoft/onnxruntime
PR #11696). That flag reads ``ActivationSymmetric`` alone, so with the calibrated range made symmetric the Relu is
still removed, its output's zero point sits mid-range, and negative values pass through.

The script quantizes ``y = Relu(Conv(x, w))`` (``x: float[1, 3, 6, 6]``, opset 17) in the QDQ and QOperator formats
with the option, calibrated on the very input it then runs, and exits 1 when an output has a value below zero by more
than one quantization step (a Relu's output never is), 0 otherwise. ``ActivationSymmetric=True`` keeps the Relu and
passes. Needs onnx, onnxruntime and numpy.
"""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime import quantization as q

rng = np.random.default_rng(0)
w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
x = rng.standard_normal((1, 3, 6, 6)).astype(np.float32)
nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), helper.make_node("Relu", ["c"], ["y"])]
graph = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 6, 6])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 6, 6])],
    [numpy_helper.from_array(w, "w")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


class Reader(q.CalibrationDataReader):
    def __init__(self):
        self.it = iter([{"x": x}])

    def get_next(self):
        return next(self.it, None)


def run(path):
    return ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


d = tempfile.mkdtemp()
src = os.path.join(d, "float.onnx")
onnx.save(model, src)
reference = run(src)
failed = False
for fmt in (q.QuantFormat.QDQ, q.QuantFormat.QOperator):
    out = os.path.join(d, f"{fmt.name}.onnx")
    q.quantize_static(src, out, Reader(), quant_format=fmt, extra_options={"CalibTensorRangeSymmetric": True})
    quantized = onnx.load(out)
    ops = [n.op_type for n in quantized.graph.node]
    step = float(reference.max() - reference.min()) / 127  # one int8 step of a symmetric range over y's values, bound
    y = run(out)
    print(
        f"{fmt.name}: {ops}; min of y {y.min():.4f} (float model: {reference.min():.4f}), max abs err "
        f"{np.abs(y - reference).max():.4f}"
    )
    if y.min() < -step:
        failed = True
sys.exit(1 if failed else 0)
