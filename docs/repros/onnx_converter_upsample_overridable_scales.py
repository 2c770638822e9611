"""onnx's version converter (Upsample 9 -> 8, adapters/upsample_9_8.h) writes an overridable default as a constant.

Y = Upsample-9(X, scales), mode nearest, X: uint8[1, 1, 2, 2], `scales` a graph input whose initializer [1, 1, 2, 2]
is its default (IR.md §Graphs: a caller may override it). convert_version(m, 8) writes Upsample-7's `scales`
attribute from the default and drops the input: fed scales = [2, 2, 1, 1], the original gives shape [2, 2, 2, 2],
the converted model [1, 1, 4, 4]. The adapter refuses a `scales` that is no initializer ("Unsupported conversion
due to unavailable input"); a default the caller may override is no more convertible.
Exits 1 while the bug is there, 0 once fixed (a refusal also counts as fixed)."""

import sys

import numpy as np
import onnx
import onnx.version_converter
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

graph = helper.make_graph(
    [helper.make_node("Upsample", ["X", "scales"], ["Y"], mode="nearest")],
    "g",
    [helper.make_tensor_value_info("X", TensorProto.UINT8, [1, 1, 2, 2]),
     helper.make_tensor_value_info("scales", TensorProto.FLOAT, [4])],
    [helper.make_tensor_value_info("Y", TensorProto.UINT8, [None, None, None, None])],
    [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)], ir_version=4)
onnx.checker.check_model(model)
print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
try:
    converted = onnx.version_converter.convert_version(model, 8)
except Exception as exc:  # noqa: BLE001 - a refusal is a right answer
    print("fixed: the converter refuses:", type(exc).__name__, str(exc)[:200])
    sys.exit(0)
print("converted:", [(n.op_type, [(a.name, list(a.floats)) for a in n.attribute]) for n in converted.graph.node])
print("graph inputs after:", [v.name for v in converted.graph.input])


def run(m, feeds):
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    names = {i.name for i in s.get_inputs()} | {i.name for i in s.get_overridable_initializers()}
    return s.run(None, {k: v for k, v in feeds.items() if k in names})[0]


feeds = {"X": np.arange(4, dtype=np.uint8).reshape(1, 1, 2, 2), "scales": np.array([2, 2, 1, 1], np.float32)}
want, got = run(model, feeds), run(converted, feeds)
print("fed scales [2, 2, 1, 1]: original", want.shape, "converted", got.shape)
if want.shape != got.shape or not np.array_equal(want, got):
    print("BUG: the converted model ignores the fed scales (the default was written as a constant attribute)")
    sys.exit(1)
sys.exit(0)
