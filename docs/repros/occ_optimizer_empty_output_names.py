"""onnxconverter-common's graph optimizer fails an assertion on a node that skips two optional outputs by empty names.

``_, y_h, _ = LSTM(x, W, R, hidden_size=2)`` — ``Y`` and ``Y_c`` not wanted, written as empty names — then
``y = Relu(y_h)``, ``x: float[5, 1, 3]``, opset 17. IR.md §Names / Operators.md LSTM: an optional output may be
left out by an empty name, in any position. ``LinkedNode.build_from_onnx`` (onnxconverter-common 1.16.0) maps every
output name to its node with ``assert var_map.get(var_) is None``: the second ``""`` of the same node fails it
(a bare ``AssertionError``), and the whole optimization fails. With the trailing optional output omitted
(``["", "y_h"]``) it runs.

Needs onnx, onnxconverter-common, numpy. Exits 1 while ``["", "y_h"]`` optimizes to a valid model and
``["", "y_h", ""]`` fails.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

VI = helper.make_tensor_value_info
H = 2
RNG = np.random.default_rng(0)
W = numpy_helper.from_array(RNG.standard_normal((1, 4 * H, 3)).astype(np.float32), "W")
R = numpy_helper.from_array(RNG.standard_normal((1, 4 * H, H)).astype(np.float32), "R")


def model(outputs):
    nodes = [
        helper.make_node("LSTM", ["x", "W", "R"], outputs, hidden_size=H),
        helper.make_node("Relu", ["y_h"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "g", [VI("x", TensorProto.FLOAT, [5, 1, 3])], [VI("y", TensorProto.FLOAT, [1, 1, H])], [W, R]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def error(m):
    onnx.checker.check_model(m, full_check=True)  # the given model is valid
    try:
        onnx.checker.check_model(optimize_onnx_model(m), full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return None


errors = {'["", "y_h"]': error(model(["", "y_h"])), '["", "y_h", ""]': error(model(["", "y_h", ""]))}
for k, e in errors.items():
    print(f"LSTM outputs {k}: {e or 'valid'}")
sys.exit(1 if errors['["", "y_h"]'] is None and errors['["", "y_h", ""]'] else 0)
