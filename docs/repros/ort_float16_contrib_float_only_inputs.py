"""onnxruntime's float16 conversion (``OnnxModel.convert_float_to_float16(keep_io_types=True)`` over
``onnxruntime/transformers/float16.py``) writes float16 into inputs of onnxruntime's own contrib ops whose schema
admits ``tensor(float)`` only, so the converted model does not load. The converter knows the class: its
``ALWAYS_FLOAT_INPUTS`` keeps Resize's scales and GroupNorm / SkipGroupNorm's gamma and beta float, and
``DEFAULT_OP_BLOCK_LIST`` blocks the ML ops; it reads no schema, so every other contrib op with a float-only input is
converted. Three of them here, each a valid one-node model onnxruntime runs: QLinearSigmoid (``X_scale`` /
``Y_scale``: ``tensor(float)``), MaxpoolWithMask (``T``: ``tensor(float)``), DynamicQuantizeMatMul (``A``, ``b_scale``:
``tensor(float)``). Exits 1 while a converted model fails to load; 0 once each loads (the inputs kept float, or the
op blocked)."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh
from onnxruntime.transformers.onnx_model import OnnxModel


def model(node, inputs, output, inits):
    g = h.make_graph([node], "g", inputs, [output], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)], ir_version=8)


def init(name, value, dtype):
    return nh.from_array(np.array(value, dtype), name)


cases = {
    "QLinearSigmoid": model(
        h.make_node("QLinearSigmoid", ["X", "xs", "xz", "ys", "yz"], ["Y"], domain="com.microsoft"),
        [h.make_tensor_value_info("X", T.INT8, [2, 3])],
        h.make_tensor_value_info("Y", T.INT8, [2, 3]),
        [init("xs", 0.1, np.float32), init("xz", 1, np.int8), init("ys", 0.2, np.float32), init("yz", 2, np.int8)],
    ),
    "MaxpoolWithMask": model(
        h.make_node("MaxpoolWithMask", ["X", "M"], ["Y"], domain="com.microsoft", kernel_shape=[2, 2]),
        [h.make_tensor_value_info("X", T.FLOAT, [1, 1, 4, 4])],
        h.make_tensor_value_info("Y", T.FLOAT, [1, 1, 3, 3]),
        [init("M", np.ones((1, 1, 4, 4)), np.int32)],
    ),
    "DynamicQuantizeMatMul": model(
        h.make_node("DynamicQuantizeMatMul", ["A", "B", "bs"], ["Y"], domain="com.microsoft"),
        [h.make_tensor_value_info("A", T.FLOAT, [3, 4])],
        h.make_tensor_value_info("Y", T.FLOAT, [3, 2]),
        [init("B", [[1, -2], [3, 4], [-5, 6], [7, -8]], np.int8), init("bs", 0.1, np.float32)],
    ),
}

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
bad = 0
for name, m in cases.items():
    onnx.checker.check_model(m, full_check=True)
    ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])  # the input model loads
    wrapped = OnnxModel(m)
    wrapped.convert_float_to_float16(keep_io_types=True)
    try:
        ort.InferenceSession(wrapped.model.SerializeToString(), providers=["CPUExecutionProvider"])
        print(f"{name}: the converted model loads")
    except Exception as exc:  # noqa: BLE001 - the refusal is what is reported
        bad += 1
        print(f"{name}: the converted model does not load: {str(exc).splitlines()[0][-200:]}")
sys.exit(1 if bad else 0)
