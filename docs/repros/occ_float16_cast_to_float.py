"""onnxconverter-common's float16 conversion retypes the output of ``Cast(to=FLOAT)`` without changing ``to``; the model
it writes is invalid (known upstream: microsoft/onnxconverter-common#320, #331; PRs #326, #328 open).

``y = Add(Cast(i), b)`` with ``i: int64[3]`` and ``b`` a float initializer, the conversion of ``i`` to float spelled
``Cast(i, to=FLOAT)`` or ``CastLike(i, like)`` with a float ``like`` initializer (Operators.md CastLike-15: the type of
its second input). ``onnxconverter_common.float16.convert_float_to_float16`` (1.16.0) rewrites every float
``value_info`` to float16 (``process_value_info``) and every float initializer, but reads no ``to`` attribute: the
Cast still writes float while its output is declared float16 and ``b`` is float16, and the checker and onnxruntime
refuse the result. CastLike follows its converted ``like`` and converts to a valid model. (onnxruntime's fork sets
``to`` to FLOAT16.)

Needs onnx, onnxconverter-common, numpy. Exits 1 while the Cast spelling gives an invalid model and the CastLike one
does not.
"""

import sys
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common import float16

INT_IN = helper.make_tensor_value_info("i", TensorProto.INT64, [3])
Y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])


def model(cast_like):
    inits = [numpy_helper.from_array(np.ones(3, np.float32), "b")]
    if cast_like:
        inits.append(numpy_helper.from_array(np.zeros((), np.float32), "like"))
        cast = helper.make_node("CastLike", ["i", "like"], ["c"], name="cast")
    else:
        cast = helper.make_node("Cast", ["i"], ["c"], to=TensorProto.FLOAT, name="cast")
    graph = helper.make_graph([cast, helper.make_node("Add", ["c", "b"], ["y"], name="add")], "g", [INT_IN], [Y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def converted_error(m):
    out = float16.convert_float_to_float16(m, keep_io_types=True)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
errors = {"CastLike(i, like)": converted_error(model(True)), "Cast(i, to=FLOAT)": converted_error(model(False))}
for k, e in errors.items():
    print(f"{k}: {'valid' if e is None else e}")
sys.exit(1 if errors["CastLike(i, like)"] is None and errors["Cast(i, to=FLOAT)"] else 0)
