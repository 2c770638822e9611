"""onnxruntime's float16 conversion puts the Cast of a blocked op inside an If branch into the main graph.

``y = If(sum(x) > 0, then: Max(x, x), else: Neg(x))``: Max is in ``float16.DEFAULT_OP_BLOCK_LIST`` (kept float32),
so the conversion reads it float32 behind a ``Cast`` of its float16 input and casts its output back. The node list
it walks includes the nodes of every subgraph, but each new Cast is appended to ``model.graph.node`` (onnxruntime
1.32.0, ``transformers/float16.py``, the loop over ``node_list``): the Cast after Max sits in the main graph while
Max, in the then-branch, now writes ``t_cast_to_fp16``, and the branch's output ``t`` is produced by no node of the
branch (IR.md §Graphs: a subgraph's outputs are produced by its nodes or read from outer scope). The same model with
the Max in the main graph converts to a valid model.

Needs onnx, onnxruntime, numpy, sympy. Exits 1 while the subgraph spelling gives an invalid model and the flat one
does not.
"""

import logging
import os
import sys
import tempfile

import onnx
from onnx import TensorProto, helper
from onnxruntime.transformers.onnx_model import OnnxModel

X, Y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3]) for n in ("x", "y"))


def in_branch():
    then = helper.make_graph(
        [helper.make_node("Max", ["x", "x"], ["t"])], "then", [], [helper.make_tensor_value_info("t", 1, [2, 3])]
    )
    other = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["e"])], "else", [], [helper.make_tensor_value_info("e", 1, [2, 3])]
    )
    nodes = [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        helper.make_node("Greater", ["s", "zero"], ["b"]),
        helper.make_node("If", ["b"], ["y"], then_branch=then, else_branch=other),
    ]
    graph = helper.make_graph(nodes, "g", [X], [Y], [helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def flat():
    graph = helper.make_graph([helper.make_node("Max", ["x", "x"], ["y"])], "g", [X], [Y])
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
errors = {"flat": converted_error(flat()), "in an If branch": converted_error(in_branch())}
for k, e in errors.items():
    print(f"Max {k}: {'valid' if e is None else e}")
sys.exit(1 if errors["flat"] is None and errors["in an If branch"] else 0)
