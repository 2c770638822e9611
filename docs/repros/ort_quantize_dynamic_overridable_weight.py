"""onnxruntime's dynamic quantizer bakes an overridable initializer into int8 and drops the graph input that overrides it.

``y = MatMul(x, w)``, ``w`` a ``float[4, 3]`` initializer that is also a graph input (IR version >= 4: the
initializer is that input's default and a caller may feed another value, IR.md §Graphs). ``quantize_dynamic``
(onnxruntime 1.32.0, QOperator, its defaults) quantizes ``w`` as a weight into an int8 initializer read by
MatMulInteger; the quantized model then computes with the default whatever value is fed for ``w`` (onnxruntime's own
optimizer leaves such an initializer alone: "will not be treated as constant").

Needs onnx, onnxruntime, numpy. Exits 1 while the quantized model ignores a fed ``w``.
"""

import logging
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import quantize_dynamic

rng = np.random.default_rng(0)
w0 = rng.standard_normal((4, 3)).astype(np.float32)
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["y"])],
    "overridable_weight",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4]), helper.make_tensor_value_info("w", 1, [4, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(w0, "w")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)

logging.disable(logging.WARNING)
with tempfile.TemporaryDirectory() as d:
    src, out = os.path.join(d, "f.onnx"), os.path.join(d, "q.onnx")
    onnx.save(model, src)
    quantize_dynamic(src, out)
    q = onnx.load(out)


def run(m, feeds):
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    names = {i.name for i in s.get_inputs()} | {i.name for i in s.get_overridable_initializers()}
    return s.run(None, {k: v for k, v in feeds.items() if k in names})[0], sorted(names)


x = rng.standard_normal((2, 4)).astype(np.float32)
w1 = -3 * w0  # a caller's value for the overridable default
want, names_f = run(model, {"x": x, "w": w1})
got, names_q = run(q, {"x": x, "w": w1})
print("float model takes", names_f, "; quantized model takes", names_q)
err = float(np.abs(got - want).max())
print(f"max abs err with w fed: {err:.3g} (output peak {float(np.abs(want).max()):.3g})")
sys.exit(1 if err > 0.1 * float(np.abs(want).max()) else 0)
