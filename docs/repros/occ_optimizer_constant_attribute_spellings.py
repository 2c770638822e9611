"""onnxconverter-common's graph optimizer crashes on a Constant spelled with any attribute but ``value``.

``y = Add(x, c)``, ``x: float[3]``, ``c`` a Constant, opset 17. Operators.md Constant-12+: exactly one of ``value``,
``value_float``, ``value_floats``, ``value_int``, ``value_ints``, ``value_string``, ``value_strings``,
``sparse_value`` gives the constant. ``onnxconverter_common.optimizer.optimize_onnx_model`` (1.16.0) ends with
``const_folding_optimizer``, whose ``OnnxGraphContext._OnConstant`` evaluates every Constant as
``numpy_helper.to_array(get_attribute(node, "value"))``: with no ``value`` attribute it converts None and raises
``AttributeError: 'NoneType' object has no attribute 'HasField'``.

Needs onnx, onnxconverter-common. Exits 1 while ``value=<tensor>`` optimizes and ``value_floats`` crashes.
"""

import sys

from onnx import TensorProto, helper
from onnxconverter_common.optimizer import optimize_onnx_model

SPELLINGS = {
    "value": {"value": helper.make_tensor("c", TensorProto.FLOAT, [3], [1.0, 2.0, 3.0])},
    "value_floats": {"value_floats": [1.0, 2.0, 3.0]},
    "value_float": {"value_float": 2.0},
}


def model(attrs):
    nodes = [helper.make_node("Constant", [], ["c"], **attrs), helper.make_node("Add", ["x", "c"], ["y"])]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def error(m):
    try:
        optimize_onnx_model(m)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return None


errors = {k: error(model(a)) for k, a in SPELLINGS.items()}
for k, e in errors.items():
    print(f"Constant({k}=...): {e or 'optimized'}")
sys.exit(1 if errors["value"] is None and errors["value_floats"] else 0)
