"""onnxconverter-common's constant folder recurses without end on a node that skips an optional input and an
optional output by empty names.

``_, y_h = GRU(x, W, R, "", "", hidden_size=2)`` — ``B`` and ``sequence_lens`` left out by empty names, ``Y`` not
wanted — then ``y = Relu(y_h)``, ``x: float[5, 1, 3]``, opset 17. IR.md §Names / Operators.md GRU: an empty name is
an absent optional input or output. ``OnnxGraphContext`` (onnxconverter-common 1.16.0, ``_opt_const_folding.py``)
maps every output name to its node, the empty one included, and ``_dfs_calc`` follows each input name through that
map: the GRU's ``""`` input leads to the GRU itself (the producer of ``""``) before its status is recorded, and the
walk recurses until ``RecursionError``. With the inputs given in full, or with ``Y`` named, it runs.

Needs onnx, onnxconverter-common, numpy. Exits 1 while the GRU with named outputs optimizes to a valid model and the
one with empty names on both sides fails.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

VI = helper.make_tensor_value_info
H = 2
RNG = np.random.default_rng(0)
W = numpy_helper.from_array(RNG.standard_normal((1, 3 * H, 3)).astype(np.float32), "W")
R = numpy_helper.from_array(RNG.standard_normal((1, 3 * H, H)).astype(np.float32), "R")


def model(outputs):
    nodes = [
        helper.make_node("GRU", ["x", "W", "R", "", ""], outputs, hidden_size=H),
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
    except RecursionError as e:
        return f"RecursionError: {e}"
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return None


errors = {'["Y", "y_h"]': error(model(["Y", "y_h"])), '["", "y_h"]': error(model(["", "y_h"]))}
for k, e in errors.items():
    print(f"GRU(x, W, R, '', '') outputs {k}: {e or 'valid'}")
sys.exit(1 if errors['["Y", "y_h"]'] is None and errors['["", "y_h"]'] else 0)
