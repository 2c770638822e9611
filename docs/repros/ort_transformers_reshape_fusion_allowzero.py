"""onnxruntime.transformers' ReshapeFusion writes 0 ("copy this dim") into the shape of a Reshape whose allowzero is 1.

``r = Reshape<allowzero=1>(x, Concat(Unsqueeze(Gather(Shape(x), 0)), Unsqueeze(Gather(Shape(x), 1)), [2, 4]))``,
``x: float[N, 4, 8]``, opset 17: the shape is ``[N, 4, 2, 4]``, no zero in it, so ``allowzero`` changes nothing and the
model runs. ``optimize_model(m, "bert", opt_level=0)`` (also ``"unet"``: ``FusionReshape``,
``transformers/fusion_reshape.py``) replaces the shape by a Constant ``[0, 0, 2, 4]``, spelling the copied dims as 0,
and keeps ``allowzero=1``. Operators.md (Reshape-14): with ``allowzero`` set, a 0 in the shape is an explicit zero,
not a copy of the input dim; onnxruntime fails the optimized model ("requested shape:{0,0,2,4}").

Needs onnx, onnxruntime, numpy. Exits 1 while the optimized model fails where the input runs.
"""

import copy
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

graph = helper.make_graph(
    [
        helper.make_node("Shape", ["x"], ["sh"]),
        helper.make_node("Gather", ["sh", "k0"], ["d0"]),
        helper.make_node("Gather", ["sh", "k1"], ["d1"]),
        helper.make_node("Unsqueeze", ["d0", "axes"], ["u0"]),
        helper.make_node("Unsqueeze", ["d1", "axes"], ["u1"]),
        helper.make_node("Concat", ["u0", "u1", "tail"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["r"], allowzero=1),
    ],
    "reshape_allowzero",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4, 8])],
    [helper.make_tensor_value_info("r", TensorProto.FLOAT, ["N", 4, 2, 4])],
    [
        numpy_helper.from_array(np.array(0, np.int64), "k0"),
        numpy_helper.from_array(np.array(1, np.int64), "k1"),
        numpy_helper.from_array(np.array([0], np.int64), "axes"),
        numpy_helper.from_array(np.array([2, 4], np.int64), "tail"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
x = np.arange(64, dtype=np.float32).reshape(2, 4, 8)


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


expected = run(model)  # (2, 4, 2, 4)
fused = optimize_model(copy.deepcopy(model), "bert", opt_level=0, num_heads=0, hidden_size=0).model
print([(n.op_type, [(a.name, helper.get_attribute_value(a)) for a in n.attribute]) for n in fused.graph.node])
try:
    got = run(fused)
except Exception as exc:  # onnxruntime's Fail
    print("BUG:", str(exc).strip().splitlines()[0][-120:])
    sys.exit(1)
print("ok" if np.array_equal(got, expected) else "BUG: values differ")
sys.exit(0 if np.array_equal(got, expected) else 1)
