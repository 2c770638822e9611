"""onnxscript's version converter leaves GroupNormalization-18 unadapted when the channel dim is not a number.

GroupNormalization-18 takes `scale` and `bias` per group (shape `(num_groups)`), GroupNormalization-21 per channel
(shape `(C)`; Changelog.md). onnxscript's `groupnormalization_20_21` (version_converter/_version_converter.py)
repeats them per channel only when `x.shape[1]` and the scale's and bias's lengths are Python ints; otherwise it
returns None, and the converter keeps the node and stamps the model opset 21. y = GroupNormalization-18(x, s, b),
num_groups = 2, x: float[N, C, L], s, b: float[2], opset 20, IR 9 (onnx 1.16 / 1.17 accept it; onnxruntime runs
it), converted on the IR (`onnx_ir.serde.deserialize_model`, `convert_version(model, 21)`): the output keeps the
[2]-long scale under GroupNormalization-21 and onnxruntime refuses it on x: [2, 4, 3]. The same model with
x: float[2, 4, 3] is converted right. onnx's own adapter computes C / num_groups at run time (Shape, Div).
Exits 1 while the bug is there, 0 once the converted model computes what the original does."""

import sys

import numpy as np
import onnx_ir as ir
import onnxruntime as ort
import onnxscript
import onnxscript.version_converter
from onnx import TensorProto, helper

graph = helper.make_graph(
    [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2)],
    "g",
    [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "C", "L"]),
        helper.make_tensor_value_info("s", TensorProto.FLOAT, [2]),
        helper.make_tensor_value_info("b", TensorProto.FLOAT, [2]),
    ],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", "C", "L"])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=9)
feeds = {
    "x": np.random.default_rng(0).standard_normal((2, 4, 3)).astype(np.float32),
    "s": np.array([1.0, 2.0], np.float32),
    "b": np.array([0.0, 1.0], np.float32),
}


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]


print("onnxscript", onnxscript.__version__, "onnxruntime", ort.__version__)
expected = run(model)
converted = ir.serde.deserialize_model(model)
onnxscript.version_converter.convert_version(converted, 21)
out = ir.serde.serialize_model(converted)
print("converted:", [n.op_type for n in out.graph.node], "opset", [o.version for o in out.opset_import])
try:
    actual = run(out)
except Exception as exc:  # noqa: BLE001 - onnxruntime's refusal is the symptom
    print("BUG: the converted model does not run:", str(exc).splitlines()[0][:200])
    sys.exit(1)
if not np.allclose(actual, expected, rtol=1e-4, atol=1e-5):
    print("BUG: the converted model computes other numbers; max diff", float(np.abs(actual - expected).max()))
    sys.exit(1)
sys.exit(0)
