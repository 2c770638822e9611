"""onnxruntime's static quantizer drops a Gemm's ``beta`` from the result when the bias is a constant.

Operators.md Gemm: ``Y = alpha * A' * B' + beta * C``, ``beta`` any float (default 1.0). ``quantize_static``
(onnxruntime 1.32.0, QDQ format, its defaults) quantizes the constant ``C`` as a bias: the int32 values are
``C / (x_scale * w_scale * beta)`` and the DequantizeLinear scale written is ``x_scale * w_scale * beta``, so the
dequantized bias is ``C``; then ``operators/gemm.py`` (``set_default_beta``) sets the Gemm's ``beta`` to 1.0. The
quantized graph computes ``A' * B' + C``: the bias is off by ``(1 - beta) * C`` for every ``beta`` other than 1
(and 0, which 1.32.0 handles apart). The QOperator format (QGemm) is off the same way.

Needs onnx, onnxruntime, numpy. Run with the session optimizations off so only the quantizer's output is judged.
Exits 1 while the quantized model's error at ``beta = 0.5`` is many quantization steps while at ``beta = 1`` it is
about one.
"""

import logging
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, quantize_static

rng = np.random.default_rng(0)
W = rng.standard_normal((4, 6)).astype(np.float32)
C = np.array([2.0, -2.0, 1.0, -1.0], np.float32)
X = rng.standard_normal((3, 6)).astype(np.float32)


class Reader(CalibrationDataReader):
    def __init__(self):
        self.feeds = [{"x": X}]

    def get_next(self):
        return self.feeds.pop() if self.feeds else None


def model(beta):
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "w", "c"], ["y"], transB=1, beta=beta)],
        "gemm_beta",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])],
        [numpy_helper.from_array(W, "w"), numpy_helper.from_array(C, "c")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def run(m):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": X})[0]


def error(beta):
    m = model(beta)
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "f.onnx"), os.path.join(d, "q.onnx")
        onnx.save(m, src)
        quantize_static(src, out, Reader(), quant_format=QuantFormat.QDQ)
        q = onnx.load(out)
    y_scale = max(float(numpy_helper.to_array(t)) for t in q.graph.initializer if t.name == "y_scale")
    return float(np.abs(run(q) - (X @ W.T + beta * C)).max()), y_scale


logging.disable(logging.WARNING)
errors = {beta: error(beta) for beta in (1.0, 0.5, 2.0)}
for beta, (err, step) in errors.items():
    print(f"beta={beta}: max abs error {err:.4f} ({err / step:.1f} output steps)")
one_step_at_1 = errors[1.0][0] <= 2 * errors[1.0][1]
sys.exit(1 if one_step_at_1 and any(err > 10 * step for err, step in (errors[0.5], errors[2.0])) else 0)
