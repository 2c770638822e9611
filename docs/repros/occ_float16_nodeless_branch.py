"""onnxconverter-common's float16 conversion skips a subgraph that has no nodes; an If whose branch returns a branch
initializer becomes invalid.

``y = If(ReduceSum(x) > 0, then: c, else: Neg(x))`` where the then-branch is a graph with no nodes whose output is its
own float initializer ``c = [1, 2, 3]`` (IR.md §Graphs: a graph output may be an initializer), against the same
branch spelled ``Identity(c)``. ``onnxconverter_common.float16.convert_float_to_float16`` (1.16.0,
``get_next_level_graph``) collects a subgraph only ``if len(attr.g.node) > 0``: the node-less branch keeps its float
initializer and float output while the If's output becomes float16, and the checker and onnxruntime refuse the
result ("Mismatched tensor element type: inferred=float16 declared=float"). The Identity spelling converts to a valid
model.

Needs onnx, onnxconverter-common, numpy. Exits 1 while the node-less branch gives an invalid model and the Identity
one does not.
"""

import sys
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common import float16

X, Y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("x", "y"))


def model(with_identity):
    c = numpy_helper.from_array(np.array([1, 2, 3], np.float32), "c")
    if with_identity:
        then = helper.make_graph(
            [helper.make_node("Identity", ["c"], ["t"], name="id")],
            "then",
            [],
            [helper.make_tensor_value_info("t", TensorProto.FLOAT, [3])],
            [c],
        )
    else:
        then = helper.make_graph([], "then", [], [helper.make_tensor_value_info("c", TensorProto.FLOAT, [3])], [c])
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
errors = {"Identity(c)": converted_error(model(True)), "no nodes, output c": converted_error(model(False))}
for k, e in errors.items():
    print(f"then-branch {k}: {'valid' if e is None else e}")
sys.exit(1 if errors["Identity(c)"] is None and errors["no nodes, output c"] else 0)
