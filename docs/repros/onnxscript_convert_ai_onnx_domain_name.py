"""onnxscript 0.7.2's version converter (`onnxscript.version_converter.convert_version`) on `y = Relu(x)` whose model
imports the default operator set under its other name, `ai.onnx` (IR.md §Operator Sets: the empty string and
"ai.onnx" both name the operator set the ONNX specification defines; the checker accepts the model and
onnxruntime runs it). The converter looks a node's version up under the node's own domain string `""` only: every
node "has no version" and the conversion 19 -> 20 raises VersionConverterError. Exit 1 while it does."""

import sys

import onnx
import onnx_ir as ir
from onnx import TensorProto, helper
from onnxscript import version_converter

g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
)
model = helper.make_model(g, opset_imports=[helper.make_opsetid("ai.onnx", 19)], ir_version=9)
onnx.checker.check_model(model, full_check=True)
m = ir.serde.deserialize_model(model)
try:
    version_converter.convert_version(m, 20)
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, str(exc)[:200])
    sys.exit(1)
print("ok:", ir.serde.serialize_model(m).opset_import)
