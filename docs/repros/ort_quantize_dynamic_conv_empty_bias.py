"""onnxruntime's dynamic quantizer writes an invalid model for ``Conv(x, w, "")`` (and ``Gemm(a, b, "")``).

An optional input given as the empty name is "not provided" (IR.md, optional inputs), so ``Conv(x, w, "")`` is
``Conv(x, w)``. ``quantize_dynamic`` (onnxruntime 1.32.0, QOperator, its defaults) quantizes the two-input Conv into
ConvInteger and a scale Mul; for the ``""`` spelling it also takes the bias path (``len(node.input) == 3`` in
``operators/conv.py`` ``ConvInteger.quantize``): a Reshape of the bias ``""`` and an Add, which the checker rejects
("input 0 is marked single but has an empty string"). Likewise Gemm's ``C`` given as ``""``.

Needs onnx, onnxruntime, numpy. Exits 1 while the ``""`` spelling gives an invalid model and the omitted one does
not.
"""

import logging
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import quantize_dynamic


def model(conv_inputs):
    w = numpy_helper.from_array(np.random.default_rng(0).standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("Conv", conv_inputs, ["y"], pads=[1, 1, 1, 1])],
        "conv_empty_bias",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])],
        [w],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def quantized_error(m):
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "f.onnx"), os.path.join(d, "q.onnx")
        onnx.save(m, src)
        quantize_dynamic(src, out)
        q = onnx.load(out)
    try:
        onnx.checker.check_model(q, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


logging.disable(logging.WARNING)
errors = {"Conv(x, w)": quantized_error(model(["x", "w"])), 'Conv(x, w, "")': quantized_error(model(["x", "w", ""]))}
for k, e in errors.items():
    print(f"{k}: {'valid' if e is None else e}")
sys.exit(1 if errors["Conv(x, w)"] is None and errors['Conv(x, w, "")'] else 0)
