"""onnxscript 0.7.2 `onnxscript.optimizer.optimize` on an IR-version-3 model lifts a Constant node into an initializer
(onnx_ir's LiftConstantsToInitializersPass, run with `lift_all_constants=True, size_limit=0` by `optimize_ir`) without
listing it among the graph inputs, and keeps `ir_version 3`. IR.md (before IR version 4 every initializer must also be
a graph input; the checker enforces it for ir_version < 4) makes the output invalid: "slope in initializer but not in
graph input". The model: `y = PRelu(x, slope)`, `slope` a Constant node (0.01), opset 6, IR 3. Exit 1 while present."""

import sys

import onnx
import onnxscript.optimizer
from onnx import TensorProto, helper

slope = helper.make_node("Constant", [], ["slope"], value=helper.make_tensor("v", TensorProto.FLOAT, [1], [0.01]))
graph = helper.make_graph(
    [slope, helper.make_node("PRelu", ["x", "slope"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 6)])
model.ir_version = 3
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxscript.optimizer.optimize(model)
print("ir_version", out.ir_version, "inputs", [i.name for i in out.graph.input], "initializers",
      [t.name for t in out.graph.initializer])
try:
    onnx.checker.check_model(out, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG: the output is invalid:", str(exc).strip().splitlines()[0][:160])
    sys.exit(1)
print("ok")
