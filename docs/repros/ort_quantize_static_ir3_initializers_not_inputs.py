"""onnxruntime's static quantizer keeps IR version 3 while writing initializers that are no graph inputs.

IR.md (IR version 3 and below): every initializer must also be a graph input; from IR version 4 an initializer
may stand alone. ``y = MatMul(x, w)``, ``w`` an initializer listed among the inputs, IR 3, opset 9 (valid: the
checker accepts it). ``quantize_static`` (onnxruntime 1.32.0, QDQ, MinMax on the feeds below) raises the opset to
11 itself (``quant_utils.update_opset_version``) but leaves the IR version at 3, removes ``w`` from the inputs and
adds its scales, zero points and int8 weight as initializers only: the checker refuses the output ("x_zero_point
in initializer but not in graph input"); onnxruntime loads it regardless.

Needs onnx, onnxruntime, numpy. Exits 1 while the quantized model fails the checker.
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
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["y"])],
    "ir3_matmul",
    [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4]),
        helper.make_tensor_value_info("w", TensorProto.FLOAT, [4, 3]),
    ],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(rng.standard_normal((4, 3)).astype(np.float32), "w")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)], ir_version=3)
onnx.checker.check_model(model, full_check=True)
feeds = [{"x": rng.standard_normal((2, 4)).astype(np.float32)}]


class Reader(quantization.CalibrationDataReader):
    def __init__(self):
        self.it = iter(feeds)

    def get_next(self):
        return next(self.it, None)


logging.disable(logging.WARNING)
with tempfile.TemporaryDirectory() as d:
    src, out = os.path.join(d, "f.onnx"), os.path.join(d, "q.onnx")
    onnx.save(model, src)
    quantization.quantize_static(src, out, Reader())
    q = onnx.load(out)
print("IR", q.ir_version, "opset", [o.version for o in q.opset_import], "inputs", [i.name for i in q.graph.input])
try:
    onnx.checker.check_model(q, full_check=True)
except onnx.checker.ValidationError as exc:
    print("checker:", str(exc).splitlines()[0])
    sys.exit(1)
sys.exit(0)
