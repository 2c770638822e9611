"""onnxconverter-common's ``auto_convert_mixed_precision`` crashes on a valid model that has a string graph output.

``y = Neg(Relu(x))``, ``x: float[3]``, converts; the same model with a second graph output ``s = Constant(<string
[2]>)`` (IR.md: ``tensor(string)`` is a graph output type) raises "TypeError: unsupported operand type(s) for -:
'str' and 'str'": with ``rtol`` / ``atol`` given, its ``validate`` calls ``np.allclose`` on every output pair, the
string output included (onnxconverter_common/auto_mixed_precision.py, 1.16.0), before a single node is converted.
The float16 conversion itself leaves the string output alone (``convert_float_to_float16`` gives a valid model).

Needs onnx, onnxruntime, onnxconverter-common, numpy. Exits 1 while the model with a string output crashes and the
one without converts.
"""

import contextlib
import io
import sys
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnxconverter_common import auto_mixed_precision, float16


def model(with_string_output):
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"), helper.make_node("Neg", ["r"], ["y"], name="neg")]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])]
    if with_string_output:
        text = helper.make_tensor("v", TensorProto.STRING, [2], [b"a", b"b"])
        nodes.append(helper.make_node("Constant", [], ["s"], value=text, name="c"))
        outputs.append(helper.make_tensor_value_info("s", TensorProto.STRING, [2]))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])
    m = helper.make_model(helper.make_graph(nodes, "g", [x], outputs), opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    return m


def mixed_error(m):
    feed = {"x": np.array([1.0, -2.0, 3.0], np.float32)}
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # it prints every attempt
            out = auto_mixed_precision.auto_convert_mixed_precision(m, feed, rtol=1e-2, atol=1e-3, keep_io_types=True)
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
plain, strings = mixed_error(model(False)), mixed_error(model(True))
onnx.checker.check_model(float16.convert_float_to_float16(model(True), keep_io_types=True), full_check=True)
print("convert_float_to_float16 on the model with a string output: valid")
print(f"auto_convert_mixed_precision, float output only: {'valid' if plain is None else plain}")
print(f"auto_convert_mixed_precision, with a string output: {'valid' if strings is None else strings}")
sys.exit(1 if plain is None and strings is not None else 0)
