"""onnxruntime 1.32.0, quantization/shape_inference.py ``quant_pre_process`` (``ort-quant:pre-process`` and
``-no-symbolic``): for a model at opset 10 or below it replaces every Upsample by Resize
(``fusions/replace_upsample_with_resize.py``, which handles Upsample-7's ``scales`` attribute and Upsample-9's input)
and then upgrades the model with ``onnx.version_converter.convert_version(model, 11)``. At opset 7 to 9 the Resize
it wrote is not an op of the model's opset (Resize exists from opset 10, Operators.md), and the converter stops:
"No Adapter From Version $9 for Resize". Every Upsample model below opset 10 is refused, the models this step was
written for. Exit 1 while the bug is present."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization.shape_inference import quant_pre_process

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)


def model(opset):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 8, 8])
    if opset == 7:
        node, inits = helper.make_node("Upsample", ["x"], ["y"], mode="nearest", scales=[1.0, 1.0, 2.0, 2.0]), []
    else:
        node = helper.make_node("Upsample", ["x", "sc"], ["y"], mode="nearest")
        inits = [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "sc")]
    m = helper.make_model(
        helper.make_graph([node], "g", [x], [y], inits), opset_imports=[helper.make_opsetid("", opset)]
    )
    m.ir_version = 4
    onnx.checker.check_model(m, full_check=True)
    ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])  # onnxruntime runs it
    return m


failed = False
with tempfile.TemporaryDirectory() as d:
    for opset in (7, 9):
        src, dst = os.path.join(d, f"in{opset}.onnx"), os.path.join(d, f"out{opset}.onnx")
        onnx.save(model(opset), src)
        try:
            quant_pre_process(src, dst, skip_symbolic_shape=True)
            print(f"opset {opset}:", [n.op_type for n in onnx.load(dst).graph.node])
        except Exception as exc:  # noqa: BLE001 - the converter's assertion surfaces as RuntimeError
            print(f"BUG: opset {opset}: quant_pre_process raises", type(exc).__name__, str(exc).strip()[-70:])
            failed = True
sys.exit(1 if failed else 0)
