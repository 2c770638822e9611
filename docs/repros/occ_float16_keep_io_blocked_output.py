"""onnxconverter-common's float16 conversion with ``keep_io_types=True`` makes a graph output float16 when a blocked op
writes it.

``y = Max(Relu(x), x)`` against ``y = Relu(Max(x, x))`` (the same values), ``x: float[3]``: in the first a blocked op
(Max, in ``DEFAULT_OP_BLOCK_LIST``) writes the graph output ``y``, in the second a converted op (Relu) does. The
docstring's promise of ``keep_io_types``: the graph inputs and outputs stay float. ``process_node_in_block_list`` runs
before ``process_graph_output``: ``insert_cast16_after_node`` finds ``y`` among the graph outputs, adds a Cast to
float16 after Max and rewrites the *graph output's* elem_type to FLOAT16; ``process_graph_output`` then sees no float
output and adds no Cast back. The converted model is valid but its output ``y`` is float16 (onnxruntime returns a
float16 array), whereas the second spelling keeps ``y`` float.

Needs onnx, onnxconverter-common, numpy. Exits 1 while the blocked op's graph output becomes float16 and the other
stays float.
"""

import sys
import warnings

from onnx import TensorProto, helper
from onnxconverter_common import float16

X, Y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("x", "y"))


def model(blocked_last):
    if blocked_last:
        nodes = [
            helper.make_node("Relu", ["x"], ["r"], name="relu"),
            helper.make_node("Max", ["r", "x"], ["y"], name="max"),
        ]
    else:
        nodes = [
            helper.make_node("Max", ["x", "x"], ["m"], name="max"),
            helper.make_node("Relu", ["m"], ["y"], name="relu"),
        ]
    graph = helper.make_graph(nodes, "g", [X], [Y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def output_type(m):
    out = float16.convert_float_to_float16(m, keep_io_types=True)
    return TensorProto.DataType.Name(out.graph.output[0].type.tensor_type.elem_type)


warnings.simplefilter("ignore")
types = {"Relu writes y": output_type(model(False)), "Max writes y": output_type(model(True))}
for k, t in types.items():
    print(f"{k}: graph output y is {t} (keep_io_types=True)")
sys.exit(1 if types["Relu writes y"] == "FLOAT" and types["Max writes y"] != "FLOAT" else 0)
