"""onnxruntime's static quantizer in QOperator format leaves a Where reading a value that no node produces any more.

``y = Where(c, Sigmoid(x), z)``, ``x: float[2, 3]``, ``c`` a bool scalar initializer, ``z`` a float scalar
initializer, opset 13. ``quantize_static(..., quant_format=QuantFormat.QOperator)`` turns the Sigmoid into
``com.microsoft`` QLinearSigmoid, whose output is the quantized ``s_quantized``; the float ``s`` is gone. Then
``QLinearWhere.quantize`` (``operators/where.py``), with ``ForceQuantizeNoInputCheck`` off (the default), appends the
Where unchanged and returns, never calling ``QuantOperatorBase.quantize``, the path that puts a DequantizeLinear in
front of a node that reads a quantized value. The quantizer then refuses its own graph: "Invalid model with unknown
initializers/tensors.{'s'}". The QDQ format, and QOperator with ``extra_options={"ForceQuantizeNoInputCheck": True}``,
quantize the same model.

Needs onnx, onnxruntime, numpy. Exits 1 while the quantizer fails on this valid model.
"""

import logging
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime import quantization

graph = helper.make_graph(
    [helper.make_node("Sigmoid", ["x"], ["s"]), helper.make_node("Where", ["c", "s", "z"], ["y"])],
    "where_after_sigmoid",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(np.array(True), "c"), numpy_helper.from_array(np.array(0.0, np.float32), "z")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
onnx.checker.check_model(model, full_check=True)
feeds = iter([{"x": np.linspace(-3, 3, 6, dtype=np.float32).reshape(2, 3)}, {"x": np.full((2, 3), 0.5, np.float32)}])
reader = type("Reader", (quantization.CalibrationDataReader,), {"get_next": lambda self: next(feeds, None)})()

logging.disable(logging.WARNING)
out = os.path.join(tempfile.mkdtemp(), "q.onnx")
try:  # the format is the only option given
    quantization.quantize_static(model, out, reader, quant_format=quantization.QuantFormat.QOperator)
except RuntimeError as exc:
    print("BUG:", exc)
    sys.exit(1)
print("ok:", [n.op_type for n in onnx.load(out).graph.node])
