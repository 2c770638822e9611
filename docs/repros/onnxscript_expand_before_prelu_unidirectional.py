"""onnxscript 0.7.2 rule `ExpandFirst_PRelu` (rewriter/rules/common/_remove_expand_before_binary_op.py, exported,
opt-in) rewrites `PRelu(Expand(x, s), slope)` as `PRelu(x, slope)` when every dim of `s` is 1 or equals `x`'s or
`slope`'s dim at the same place from the right: the check treats every op as multidirectionally broadcasting. PRelu
broadcasts unidirectionally (Operators.md PRelu-9/16: `slope` must be broadcastable to `X`; the output has `X`'s
shape), so with `x: [1, 4]`, `s = [2, 4]`, `slope: [2, 4]` the rewritten PRelu reads a slope larger than its `X`:
the checker's inference gives `[1, 4]` against the declared `[2, 4]`. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.rules.common import expand_before_binary_op_rules

graph = helper.make_graph(
    [helper.make_node("Expand", ["x", "s"], ["e"]), helper.make_node("PRelu", ["e", "slope"], ["y"])],
    "g",
    [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, d) for n, d in (("x", [1, 4]), ("slope", [2, 4]))],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 4])],
    [numpy_helper.from_array(np.array([2, 4], np.int64), "s")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = rewrite(model, expand_before_binary_op_rules)
print([n.op_type for n in out.graph.node])
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001 - the checker's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
print("ok")
