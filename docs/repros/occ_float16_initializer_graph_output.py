"""onnxconverter-common's float16 conversion with ``keep_io_types=True`` converts an initializer that is a graph output
and leaves the output declared float; the model it writes is invalid.

``y = Relu(x)`` with a second graph output ``c``, a float initializer ``[1, 2, 3]`` (IR.md §Graphs: a graph output may
be an initializer), against the same output written ``c = Identity(w)``. With ``keep_io_types=True``
(``process_graph_output``) a float graph output gets a Cast back to float after the node that writes it; an
initializer has no such node, so no Cast is added, while ``process_initializers`` converts it to float16: the output
declared float holds float16 ("Inferred elem type differs from existing elem type: (10) vs (1)"), and onnxruntime
returns a float16 array for it. The Identity spelling converts to a valid model with a float ``c``.

Needs onnx, onnxconverter-common, numpy. Exits 1 while the initializer output gives an invalid model and the Identity
one does not.
"""

import sys
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common import float16

X, Y, C = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("x", "y", "c"))


def model(with_identity):
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    name = "w" if with_identity else "c"
    if with_identity:
        nodes.append(helper.make_node("Identity", ["w"], ["c"], name="id"))
    init = numpy_helper.from_array(np.array([1, 2, 3], np.float32), name)
    graph = helper.make_graph(nodes, "g", [X], [Y, C], [init])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def converted_error(m):
    out = float16.convert_float_to_float16(m, keep_io_types=True)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
errors = {"Identity(w)": converted_error(model(True)), "an initializer": converted_error(model(False))}
for k, e in errors.items():
    print(f"graph output c as {k}: {'valid' if e is None else e}")
sys.exit(1 if errors["Identity(w)"] is None and errors["an initializer"] else 0)
