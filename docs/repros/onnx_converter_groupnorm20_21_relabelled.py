"""onnx's version converter relabels GroupNormalization-18 as GroupNormalization-21 without adapting it.

GroupNormalization-18 takes `scale` and `bias` per group (shape `(num_groups)`), GroupNormalization-21 per channel
(shape `(C)`; Changelog.md). onnx has an adapter that repeats them per channel (adapters/group_normalization_20_21.h),
but convert.h registers it and then, in the same 20 -> 21 block, a `CompatibleAdapter("GroupNormalization", 20, 21)`
for the same step, which replaces it: the node is only restamped. y = GroupNormalization-18(x, s, b), num_groups = 2,
x: float[2, 4, 3], s = [1, 2], b = [0, 1], opset 20, IR 9 (onnx 1.16 / 1.17 accept it; newer checkers call the
version deprecated, onnxruntime runs it). convert_version(m, 21) gives GroupNormalization-21 with the same [2]-long
scale and bias: onnxruntime refuses it (its function body multiplies [2, 4, 3]-shaped data by a [2]-long scale).
Exits 1 while the bug is there, 0 once the converted model computes what the original does."""

import sys

import numpy as np
import onnx
import onnx.version_converter
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

graph = helper.make_graph(
    [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2)],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4, 3])],
    initializer=[
        numpy_helper.from_array(np.array([1.0, 2.0], np.float32), "s"),
        numpy_helper.from_array(np.array([0.0, 1.0], np.float32), "b"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=9)
x = np.random.default_rng(0).standard_normal((2, 4, 3)).astype(np.float32)


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
expected = run(model)
converted = onnx.version_converter.convert_version(model, 21)
print("converted:", [(n.op_type, list(n.input)) for n in converted.graph.node])
try:
    actual = run(converted)
except Exception as exc:  # noqa: BLE001 - onnxruntime's refusal is the symptom
    print("BUG: the converted model does not run:", str(exc).splitlines()[0][:200])
    sys.exit(1)
if not np.allclose(actual, expected, rtol=1e-4, atol=1e-5):
    print("BUG: the converted model computes other numbers; max diff", float(np.abs(actual - expected).max()))
    sys.exit(1)
sys.exit(0)
