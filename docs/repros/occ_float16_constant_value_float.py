"""onnxconverter-common's float16 conversion leaves ``Constant(value_float=…)`` float; the model it writes is invalid.

``y = Mul(x, c)`` with ``c`` a Constant spelled three ways (Operators.md Constant-12+: ``value``, ``value_float`` and
``value_floats`` give the same float constant). ``onnxconverter_common.float16.convert_float_to_float16`` (1.16.0,
``process_tensor_in_node``) converts an attribute's ``t`` and ``tensors`` only: ``value=<tensor>`` becomes float16,
``value_float`` / ``value_floats`` keep writing float while the Mul's other input and the value_info of ``c`` say
float16, and the checker and onnxruntime refuse the result. (The same gap as onnxruntime's fork, docs/found.md row 630;
a separate copy, a separate fix.)

Needs onnx, onnxconverter-common, numpy. Exits 1 while ``value`` converts to a valid model and ``value_float`` does
not.
"""

import sys
import warnings

import onnx
from onnx import TensorProto, helper
from onnxconverter_common import float16

X, Y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3]) for n in ("x", "y"))
SPELLINGS = {
    "value": {"value": helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])},
    "value_float": {"value_float": 2.0},
    "value_floats": {"value_floats": [2.0]},
}


def model(attrs):
    nodes = [
        helper.make_node("Constant", [], ["c"], name="c", **attrs),
        helper.make_node("Mul", ["x", "c"], ["y"], name="m"),
    ]
    return helper.make_model(
        helper.make_graph(nodes, "g", [X], [Y]), opset_imports=[helper.make_opsetid("", 17)], ir_version=8
    )


def converted_error(m):
    out = float16.convert_float_to_float16(m, keep_io_types=True)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
errors = {k: converted_error(model(a)) for k, a in SPELLINGS.items()}
for k, e in errors.items():
    print(f"Constant({k}=...): {'valid' if e is None else e}")
sys.exit(1 if errors["value"] is None and errors["value_float"] else 0)
