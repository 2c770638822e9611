"""onnx's version converter refuses an axes / split input that a Constant writes with its typed attribute.

Operators.md Constant-12: `value_ints` is an int64 1-D tensor, the same value as `value` holding that tensor. The
adapters that move an input back into an attribute (`AxesInputToAttribute`: Squeeze / Unsqueeze / ReduceSum 13 -> 12,
the other Reduce ops 18 -> 17; Split 13 -> 12) read a producing Constant's `value` only (`node->t(kvalue)`):
`y = Squeeze(x, Constant(value_ints=[0]))`, `x: float[1, 3]`, opset 13, converted to opset 12, aborts with
"required undefined attribute 'value'", while the same model with `Constant(value=tensor)` converts to
`Squeeze(x, axes=[0])`. Exits 1 while the typed spelling is refused."""

import sys

import numpy as np
import onnx
import onnx.version_converter
from onnx import TensorProto, helper, numpy_helper


def model(typed):
    if typed:
        axes = helper.make_node("Constant", [], ["axes"], value_ints=[0])
    else:
        axes = helper.make_node("Constant", [], ["axes"], value=numpy_helper.from_array(np.array([0], np.int64)))
    graph = helper.make_graph(
        [axes, helper.make_node("Squeeze", ["x", "axes"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    onnx.checker.check_model(m, full_check=True)
    return m


print("onnx", onnx.__version__)
for typed in (False, True):
    try:
        out = onnx.version_converter.convert_version(model(typed), 12)
        print("typed" if typed else "tensor", "->", [(n.op_type, [(a.name, list(a.ints)) for a in n.attribute]) for n in out.graph.node])
    except Exception as exc:  # the converter aborts through an assertion it raises as RuntimeError
        print("typed" if typed else "tensor", "-> refused:", str(exc).splitlines()[0][-120:])
        if typed:
            print("BUG: the typed Constant spelling of the axes input is refused")
            sys.exit(1)
        raise
sys.exit(0)
