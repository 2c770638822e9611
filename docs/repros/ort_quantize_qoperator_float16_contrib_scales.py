"""onnxruntime's static quantizer in QOperator format writes float16 scales into com.microsoft QLinear ops.

``y = Sigmoid(x)``, ``x: float16[1, 2, 4, 4]``, opset 21. ``quantize_static(..., quant_format=QuantFormat.QOperator)``
gives the scales the float type of the tensor they quantize (float16 here) and writes ``com.microsoft`` QLinearSigmoid
(likewise QLinearAveragePool, ...) with float16 ``X_scale`` / ``Y_scale``. Those contrib schemas take
``tensor(float)`` scales only (onnxruntime's ContribOperators.md), whatever the model's opset: onnxruntime refuses the
output ("Type 'tensor(float16)' of input parameter (x_scale) of operator (QLinearSigmoid) ... is invalid"). At opset
19 and above the QDQ format's QuantizeLinear / DequantizeLinear take float16 scales, so this is not docs/found.md
row 740 (QDQ below opset 19).

Needs onnx, onnxruntime, numpy. Exits 1 while the quantized model does not load.
"""

import logging
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnxruntime import quantization

graph = helper.make_graph(
    [helper.make_node("Sigmoid", ["x"], ["y"])],
    "float16_sigmoid",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [1, 2, 4, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [1, 2, 4, 4])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
onnx.checker.check_model(model, full_check=True)
ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])  # the input loads
calibration = [{"x": np.full((1, 2, 4, 4), v, np.float16)} for v in (-2.0, 0.25, 3.0)]


class Reader(quantization.CalibrationDataReader):
    def get_next(self):
        return calibration.pop() if calibration else None


logging.disable(logging.WARNING)
path = os.path.join(tempfile.mkdtemp(), "sigmoid_qop.onnx")
quantization.quantize_static(model, path, Reader(), quant_format=quantization.QuantFormat.QOperator)
print([(n.domain, n.op_type) for n in onnx.load(path).graph.node])
try:
    ort.InferenceSession(path, providers=["CPUExecutionProvider"])
except Exception as exc:  # InvalidGraph
    print("BUG:", str(exc).strip().splitlines()[0])
    sys.exit(1)
print("ok")
