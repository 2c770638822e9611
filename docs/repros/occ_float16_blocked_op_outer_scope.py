"""onnxconverter-common's float16 conversion puts no Cast before a blocked op in a subgraph that reads an outer-scope
value; the model it writes is invalid.

``y = If(ReduceSum(x) > 0, then: Max(…), else: Neg(x))``, the then-branch spelled two ways with the same meaning:
``t = Max(Relu(x), Relu(x))`` (Max reads a value of its own branch) and ``m = Max(x, x); t = Relu(m)`` (Max reads the
outer-scope ``x`` directly, IR.md §Graphs: a subgraph may name any value of an enclosing scope). Max is in
``DEFAULT_OP_BLOCK_LIST``: the converter keeps it float behind a Cast to float before each float16 input
(``insert_cast32_before_node``), but it looks for the input's type in the subgraph's own ``value_info`` and inputs
only; the outer ``x``, float16 after conversion, is read by Max directly while its output keeps the Cast back to
float16 it was given, and the checker and onnxruntime refuse the result. The first spelling converts to a valid model.

Needs onnx, onnxconverter-common, numpy. Exits 1 while the outer-scope read gives an invalid model and the local one
does not.
"""

import sys
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common import float16

X, Y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("x", "y"))
LOCAL = [("Relu", ["x"], ["r"]), ("Max", ["r", "r"], ["t"])]
OUTER = [("Max", ["x", "x"], ["m"]), ("Relu", ["m"], ["t"])]


def model(inner):
    then = helper.make_graph(
        [helper.make_node(op, i, o, name=f"then{k}") for k, (op, i, o) in enumerate(inner)],
        "then",
        [],
        [helper.make_tensor_value_info("t", TensorProto.FLOAT, [3])],
    )
    other = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["n"], name="neg")],
        "else",
        [],
        [helper.make_tensor_value_info("n", TensorProto.FLOAT, [3])],
    )
    nodes = [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0, name="sum"),
        helper.make_node("Greater", ["s", "zero"], ["b"], name="gt"),
        helper.make_node("If", ["b"], ["y"], then_branch=then, else_branch=other, name="if"),
    ]
    zero = numpy_helper.from_array(np.array(0, np.float32), "zero")
    graph = helper.make_graph(nodes, "g", [X], [Y], [zero])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def converted_error(m):
    out = float16.convert_float_to_float16(m, keep_io_types=True)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
errors = {"a branch value": converted_error(model(LOCAL)), "the outer x": converted_error(model(OUTER))}
for k, e in errors.items():
    print(f"Max reading {k}: {'valid' if e is None else e}")
sys.exit(1 if errors["a branch value"] is None and errors["the outer x"] else 0)
