"""onnxconverter-common's float16 conversion crashes in its topological sort on a node that both skips an optional
input and skips an optional output by an empty name.

``y_h = GRU(x, w, r, b, "", h0)`` with ``Y`` skipped: outputs ``["", "y_h"]`` (IR.md §Names: an empty name stands for
an absent optional input or output), against ``GRU(x, w, r)`` with the same outputs ``["", "y_h"]`` (the trailing
optional inputs left off, initial_h zero by default: the same computation). ``sort_graph_node`` (1.16.0) maps every output name
to its node, the empty one included, and takes as "first" a node none of whose inputs is in that map: a node that
reads ``""`` and writes ``""`` waits for itself, no node is ever first, and ``find_first_node`` returns None:
"AttributeError: 'NoneType' object has no attribute 'output'". Without the empty input the conversion succeeds.

Needs onnx, onnxconverter-common, numpy. Exits 1 while the empty-input spelling crashes and the other does not.
"""

import sys
import warnings

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common import float16

H = 2
X = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 3])
YH = helper.make_tensor_value_info("y_h", TensorProto.FLOAT, [1, 1, H])


def model(empty_input):
    rng = np.random.default_rng(0)
    inits = [
        numpy_helper.from_array(rng.standard_normal((1, 3 * H, 3)).astype(np.float32), "w"),
        numpy_helper.from_array(rng.standard_normal((1, 3 * H, H)).astype(np.float32), "r"),
    ]
    inputs = ["x", "w", "r"]
    if empty_input:  # bias and sequence_lens skipped by empty names, initial_h given
        inits.append(numpy_helper.from_array(np.zeros((1, 1, H), np.float32), "h0"))
        inputs += ["", "", "h0"]
    node = helper.make_node("GRU", inputs, ["", "y_h"], hidden_size=H, name="gru")
    graph = helper.make_graph([node], "g", [X], [YH], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def converted_error(m):
    try:
        float16.convert_float_to_float16(m, keep_io_types=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return None


warnings.simplefilter("ignore")
errors = {"no empty input": converted_error(model(False)), "empty inputs": converted_error(model(True))}
for k, e in errors.items():
    print(f"GRU with {k}, Y skipped by '': {'converted' if e is None else e}")
sys.exit(1 if errors["no empty input"] is None and errors["empty inputs"] else 0)
