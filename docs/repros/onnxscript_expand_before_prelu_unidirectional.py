"""onnxscript 0.7.2 opt-in rule ExpandFirst_PRelu (rewriter/rules/common/_remove_expand_before_binary_op.py) drops
the Expand in PRelu(Expand(x, [2, 3]), slope) with x: [3], slope: [2, 3]. The rule lists PRelu among the ops with
numpy-style (multidirectional) broadcasting, but PRelu's slope is only *unidirectionally* broadcastable to X
(Operators.md PRelu-9/16; Broadcasting.md): after the rewrite the slope is larger than X, and onnx's checker (full
check) rejects the model. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnxscript import rewriter
from onnxscript.rewriter.rules.common import expand_before_binary_op_rules

graph = helper.make_graph(
    [helper.make_node("Expand", ["x", "s23"], ["e"]), helper.make_node("PRelu", ["e", "slope"], ["y"])],
    "g",
    [
        helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [3]),
        helper.make_tensor_value_info("slope", onnx.TensorProto.FLOAT, [2, 3]),
    ],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(np.array([2, 3], np.int64), "s23")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = rewriter.rewrite(model, expand_before_binary_op_rules)
print([n.op_type for n in out.graph.node])
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001 - the checker's refusal is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
print("ok")
