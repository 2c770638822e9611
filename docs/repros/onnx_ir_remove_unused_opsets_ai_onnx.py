"""onnx-ir 1.1.0's RemoveUnusedOpsetsPass (`onnx_ir.passes.common.unused_removal`, run by onnxscript 0.7.2's
`optimizer.optimize` and `optimize_for_ort`) on `y = Relu(x)` whose model imports the default operator set under its
other name, `ai.onnx` (IR.md §Operator Sets: the empty string and "ai.onnx" both name the operator set the ONNX
specification defines; the checker accepts the model and onnxruntime runs it). The pass keeps the import `""` and
every import a node's domain string names; the Relu's domain is `""`, so the `ai.onnx` import is dropped as unused
and the output imports no default operator set: the checker refuses it ("model with IR version >= 3 must specify
opset_import for ONNX"). Exit 1 while it does."""

import sys

import onnx
import onnx_ir as ir
from onnx import TensorProto, helper
from onnx_ir.passes.common import RemoveUnusedOpsetsPass

g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
)
model = helper.make_model(g, opset_imports=[helper.make_opsetid("ai.onnx", 19)], ir_version=9)
onnx.checker.check_model(model, full_check=True)  # the input is valid
m = ir.serde.deserialize_model(model)
RemoveUnusedOpsetsPass()(m)
out = ir.serde.serialize_model(m)
print("imports after the pass:", [(o.domain, o.version) for o in out.opset_import])
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001 - the checker's refusal is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:200])
    sys.exit(1)
print("ok")
