"""onnxconverter-common's float16 conversion retypes the output of an op whose element type an attribute (or its
default) fixes, and leaves the attribute float; the model it writes is invalid.

Three ops, each against the spelling of the same computation whose type comes from an input instead:

- ``EyeLike(x, dtype=FLOAT)`` against ``EyeLike(x)`` (Operators.md EyeLike-9: without ``dtype`` the output has the
  input's type; with it, ``dtype``'s);
- ``RandomNormalLike(x, dtype=FLOAT, scale=0)`` against ``RandomNormalLike(x, scale=0)`` (the same rule);
- ``ConstantOfShape(shape)`` (the default ``value`` is a float32 zero, Operators.md ConstantOfShape-9) against
  ``ConstantOfShape(shape, value=<float32 [0]>)``; the library shows the Window ops and MelWeightMatrix too
  (``output_datatype`` defaults to FLOAT).

``onnxconverter_common.float16.convert_float_to_float16`` (1.16.0) retypes every float value_info
(``process_value_info``) and converts attribute tensors (``process_tensor_in_node``), but reads no integer type
attribute and no default: the output is declared float16 while the op still writes float. The checker: "Inferred elem
type differs from existing elem type: (1) vs (10)". onnxruntime's fork handles ``dtype`` (microsoft/onnxruntime#17321);
this package put RandomUniformLike in its block list (#239) and only Cast's ``to`` is reported (docs/found.md row 1295).

Needs onnx, onnxconverter-common, numpy. Exits 1 while an attribute-typed spelling gives an invalid model and its
input-typed spelling does not.
"""

import sys
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common import float16


def model(node, shape, inits=()):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)
    nodes = [node, helper.make_node("Add", ["x", "w"], ["y"], name="add")]
    graph = helper.make_graph(nodes, "g", [x], [y], list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def pairs():
    f = TensorProto.FLOAT
    shp = numpy_helper.from_array(np.array([4], np.int64), "shp")
    zero = numpy_helper.from_array(np.array([0], np.float32), "v")
    return {
        "EyeLike": (
            model(helper.make_node("EyeLike", ["x"], ["w"], name="w"), [2, 2]),
            model(helper.make_node("EyeLike", ["x"], ["w"], dtype=f, name="w"), [2, 2]),
        ),
        "RandomNormalLike": (
            model(helper.make_node("RandomNormalLike", ["x"], ["w"], scale=0.0, name="w"), [4]),
            model(helper.make_node("RandomNormalLike", ["x"], ["w"], dtype=f, scale=0.0, name="w"), [4]),
        ),
        "ConstantOfShape": (
            model(helper.make_node("ConstantOfShape", ["shp"], ["w"], value=zero, name="w"), [4], [shp]),
            model(helper.make_node("ConstantOfShape", ["shp"], ["w"], name="w"), [4], [shp]),
        ),
    }


def converted_error(m):
    onnx.checker.check_model(m, full_check=True)
    out = float16.convert_float_to_float16(m, keep_io_types=True)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
bad = False
for name, (typed_by_input, typed_by_attribute) in pairs().items():
    good, wrong = converted_error(typed_by_input), converted_error(typed_by_attribute)
    print(f"{name}, type from the input: {'valid' if good is None else good}")
    print(f"{name}, type from the attribute: {'valid' if wrong is None else wrong}")
    bad = bad or (good is None and wrong is not None)
sys.exit(1 if bad else 0)
