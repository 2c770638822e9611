"""onnxconverter-common's float16 conversion does not convert model-local functions; the model it writes is invalid.

``y = Mul(x, 2.0)`` inline, and the same node wrapped in a model-local function ``local.Scale(x) -> y`` whose body is
``c = Constant(value=<float tensor 2.0>); y = Mul(x, c)`` (IR.md §Functions: a model-local function is called like an
op and means its body). ``onnxconverter_common.float16.convert_float_to_float16`` (1.16.0) walks the main graph and
the subgraphs of its nodes' attributes but never ``model.functions``: the call's input becomes float16 while the body's
Constant stays float, and the checker and onnxruntime refuse the result. The inline spelling converts to a valid
model. (The same gap as onnxruntime's fork of this file, docs/found.md row 633; a separate copy, a separate fix.)

Needs onnx, onnxconverter-common, numpy. Exits 1 while the function spelling gives an invalid model and the inline one
does not.
"""

import sys
import warnings

import onnx
from onnx import TensorProto, helper
from onnxconverter_common import float16

TWO = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
X, Y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3]) for n in ("x", "y"))
OPSETS = [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)]


def inline():
    nodes = [helper.make_node("Constant", [], ["c"], value=TWO), helper.make_node("Mul", ["x", "c"], ["y"])]
    return helper.make_model(helper.make_graph(nodes, "g", [X], [Y]), opset_imports=OPSETS[:1], ir_version=8)


def as_function():
    body = [helper.make_node("Constant", [], ["c"], value=TWO), helper.make_node("Mul", ["x", "c"], ["y"])]
    fn = helper.make_function("local", "Scale", ["x"], ["y"], body, [helper.make_opsetid("", 17)])
    graph = helper.make_graph([helper.make_node("Scale", ["x"], ["y"], domain="local", name="s")], "g", [X], [Y])
    return helper.make_model(graph, opset_imports=OPSETS, ir_version=8, functions=[fn])


def converted_error(m):
    out = float16.convert_float_to_float16(m, keep_io_types=True)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
errors = {"inline": converted_error(inline()), "as a local function": converted_error(as_function())}
for k, e in errors.items():
    print(f"Mul {k}: {'valid' if e is None else e}")
sys.exit(1 if errors["inline"] is None and errors["as a local function"] else 0)
