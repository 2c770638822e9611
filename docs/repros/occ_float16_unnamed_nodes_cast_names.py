"""onnxconverter-common's float16 conversion names the Casts it inserts after the nodes they serve; for nodes without a
name (IR.md: a node's ``name`` is optional) two Casts write one value, and the model it writes is invalid.

Two models, each in a named and an unnamed spelling (the only difference: ``NodeProto.name`` set or empty):

- ``keep_io_types=True``, ``y = Relu(x) + Neg(x)``: ``process_graph_input`` names the Cast of ``x`` before each reader
  ``x + "_cast_to_" + reader.name``: for two unnamed readers both write ``x_cast_to_``;
- the default options, ``y = Max(Relu(Max(x, x)), x)``: Max is in ``DEFAULT_OP_BLOCK_LIST``, and
  ``insert_cast16_after_node`` names the Cast after a blocked node's output ``node.name + "_output_cast_0"``: for two
  unnamed Max both write ``_output_cast_0``.

The named spellings convert to valid models; the unnamed ones break single static assignment (IR.md §Graphs), and
onnxruntime refuses them. onnxruntime's fork of this file names them after the value instead (its PR #27469).

Needs onnx, onnxconverter-common, numpy. Exits 1 while an unnamed spelling gives an invalid model and its named one
does not.
"""

import sys
import warnings

import onnx
from onnx import TensorProto, helper
from onnxconverter_common import float16

X, Y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3]) for n in ("x", "y"))
READERS = [("Relu", ["x"], ["r"]), ("Neg", ["x"], ["n"]), ("Add", ["r", "n"], ["y"])]
BLOCKED = [("Max", ["x", "x"], ["a"]), ("Relu", ["a"], ["r"]), ("Max", ["r", "x"], ["y"])]


def model(nodes, named):
    made = [helper.make_node(op, i, o, name=f"n{k}" if named else "") for k, (op, i, o) in enumerate(nodes)]
    return helper.make_model(
        helper.make_graph(made, "g", [X], [Y]), opset_imports=[helper.make_opsetid("", 17)], ir_version=8
    )


def converted_error(m, keep_io_types):
    out = float16.convert_float_to_float16(m, keep_io_types=keep_io_types)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
bad = False
for what, nodes, keep in (("two readers of x, keep_io_types", READERS, True), ("two blocked Max", BLOCKED, False)):
    errors = {named: converted_error(model(nodes, named), keep) for named in (True, False)}
    for named, e in errors.items():
        print(f"{what}, {'named' if named else 'unnamed'} nodes: {'valid' if e is None else e}")
    bad = bad or (errors[True] is None and errors[False] is not None)
sys.exit(1 if bad else 0)
