"""onnxscript 0.7.2 rule `SlicesSplit` (rewriter/rules/common/_basic_rules.py, exported, opt-in) rewrites two Slices
of one value on its last axis, `[0:b]` and `[b:d]`, as `Split(x, axis=-1, num_outputs=2)` when `b == d // 2`. For an
odd `d` the Slices are `floor(d/2)` then `ceil(d/2)` long, but Split-18 with `num_outputs` makes every chunk
`ceil(d/2)` and only the last one smaller (Operators.md Split-18), so the two outputs swap sizes: with `x: [2, 5]`
the Slices give `[2, 2]` and `[2, 3]`, the Split `[2, 3]` and `[2, 2]` (the checker: "Inferred shape and existing
shape differ"). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.rules.common import slice_split_rule

consts = [numpy_helper.from_array(np.array([v], np.int64), n) for n, v in (("b", 2), ("d", 5), ("z", 0), ("ax", -1))]
graph = helper.make_graph(
    [
        helper.make_node("Slice", ["x", "b", "d", "ax"], ["hi"]),
        helper.make_node("Slice", ["x", "z", "b", "ax"], ["lo"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 5])],
    [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, d) for n, d in (("lo", [2, 2]), ("hi", [2, 3]))],
    consts,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = rewrite(model, [slice_split_rule])
print([n.op_type for n in out.graph.node])
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001 - the checker's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
print("ok")
