"""onnxconverter-common's constant folder ignores a Slice's negative axis.

``s = Slice(c, [0], [2], [-1])``, ``c = arange(12).reshape(3, 4)`` a float initializer, ``y = Add(s, x)``,
``x, y: float[3, 2]``, opset 17. Operators.md Slice-13: "Negative value means counting dimensions from the back.
Accepted range is [-r, r-1]": axis ``-1`` is axis 1 and ``s`` is ``c[:, 0:2]``. ``_OnSlice``
(onnxconverter-common 1.16.0, ``_opt_const_folding.py``) walks ``axis_`` over ``0 … rank-1`` and asks
``axis_ in axes``, which a negative axis never meets: the axis is left whole and ``s`` folds to all of ``c``
(``[3, 4]``), so the optimized model fails the checker ("Incompatible dimensions") and does not run. With ``axes =
[1]`` it folds to ``[3, 2]``.

Needs onnx, onnxconverter-common, numpy. Exits 1 while axis 1 folds to the right value and axis -1 does not.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

VI = helper.make_tensor_value_info
C = np.arange(12, dtype=np.float32).reshape(3, 4)


def model(axis):
    inits = [
        numpy_helper.from_array(C, "c"),
        numpy_helper.from_array(np.array([0], np.int64), "s0"),
        numpy_helper.from_array(np.array([2], np.int64), "e2"),
        numpy_helper.from_array(np.array([axis], np.int64), "ax"),
    ]
    nodes = [helper.make_node("Slice", ["c", "s0", "e2", "ax"], ["s"]), helper.make_node("Add", ["s", "x"], ["y"])]
    graph = helper.make_graph(
        nodes, "g", [VI("x", TensorProto.FLOAT, [3, 2])], [VI("y", TensorProto.FLOAT, [3, 2])], inits
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def folded(axis):
    """The value the folder gives ``s`` (None when it left the Slice) and the checker's verdict."""
    m = model(axis)
    onnx.checker.check_model(m, full_check=True)  # the given model is valid
    out = optimize_onnx_model(m)
    value = next((numpy_helper.to_array(i) for i in out.graph.initializer if i.name == "s"), None)
    try:
        onnx.checker.check_model(out, full_check=True)
        verdict = "valid"
    except Exception as e:  # noqa: BLE001
        verdict = f"{type(e).__name__}: {e}"
    return value, verdict


want = C[:, 0:2]
results = {axis: folded(axis) for axis in (1, -1)}
for axis, (value, verdict) in results.items():
    shape = None if value is None else list(value.shape)
    right = value is not None and value.shape == want.shape and bool(np.array_equal(value, want))
    print(f"axes=[{axis}]: s folded to shape {shape} ({'right' if right else 'wrong'}), output model {verdict}")
good = results[1][0] is not None and np.array_equal(results[1][0], want)
bad = results[-1][0] is not None and not (results[-1][0].shape == want.shape and np.array_equal(results[-1][0], want))
sys.exit(1 if good and bad else 0)
