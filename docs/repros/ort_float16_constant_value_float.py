"""onnxruntime's float16 conversion leaves ``Constant(value_float=...)`` in float32, and the model it writes is invalid.

``y = x * c``, ``c = Constant(value=<float tensor 2.0>)`` or the same constant spelled with the ``value_float`` /
``value_floats`` attribute (Operators.md Constant-12+: exactly one of value, value_float, value_floats, … is set; all
three spell a float constant). ``OnnxModel.convert_float_to_float16(keep_io_types=True)`` (onnxruntime 1.32.0,
``transformers/float16.py``) converts attribute *tensors* (``attr.t``, ``attr.tensors``) only: the ``value`` spelling
becomes a float16 constant, the other two stay float32 while the Mul reading them becomes float16, and the checker
rejects the result ("B has inconsistent type tensor(float)").

Needs onnx, onnxruntime, numpy, sympy. Exits 1 while the value_float / value_floats spellings give an invalid model
and the value spelling does not.
"""

import logging
import os
import sys
import tempfile

import onnx
from onnx import TensorProto, helper
from onnxruntime.transformers.onnx_model import OnnxModel


def model(**constant):
    graph = helper.make_graph(
        [helper.make_node("Constant", [], ["c"], **constant), helper.make_node("Mul", ["x", "c"], ["y"])],
        "constant_spelling",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def converted_error(m):
    om = OnnxModel(m)
    om.convert_float_to_float16(keep_io_types=True)
    with tempfile.TemporaryDirectory() as d:
        om.save_model_to_file(os.path.join(d, "fp16.onnx"))
    try:
        onnx.checker.check_model(om.model, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


logging.disable(logging.WARNING)
spellings = {
    "value": {"value": helper.make_tensor("t", TensorProto.FLOAT, [], [2.0])},
    "value_float": {"value_float": 2.0},
    "value_floats": {"value_floats": [2.0]},
}
errors = {k: converted_error(model(**v)) for k, v in spellings.items()}
for k, e in errors.items():
    print(f"Constant({k}=...): {'valid' if e is None else e}")
sys.exit(1 if errors["value"] is None and (errors["value_float"] or errors["value_floats"]) else 0)
