"""onnxscript 0.7.2 rewrite() (rules FuseMaxMinToClip / FuseMinMaxToClip, rewriter/rules/common/_min_max_to_clip.py)
reduces a Max's (Min's) constant bounds with `np.max([...])` over the list of their arrays. Max and Min are variadic
(Operators.md Max-8/12/13: 1 to many inputs, multidirectional broadcasting), so `Max(x, lo, lo1)` with a scalar `lo`
and the same value as `lo1: [1]` is valid and is `Max(x, lo)`; numpy cannot stack a rank-0 and a rank-1 array and the
pass fails on the valid model ("inhomogeneous shape"). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxscript.rewriter
from onnx import helper, numpy_helper

graph = helper.make_graph(
    [helper.make_node("Max", ["x", "lo", "lo1"], ["t"]), helper.make_node("Min", ["t", "hi"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 4])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 4])],
    [
        numpy_helper.from_array(np.array(-0.5, np.float32), "lo"),
        numpy_helper.from_array(np.array([-0.5], np.float32), "lo1"),
        numpy_helper.from_array(np.array(0.5, np.float32), "hi"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(model, full_check=True)  # the input is valid
try:
    out = onnxscript.rewriter.rewrite(model)
except Exception as exc:  # noqa: BLE001 - PassError wraps the numpy error
    cause = exc
    while cause.__cause__ is not None:
        cause = cause.__cause__
    print("BUG:", type(exc).__name__, "caused by", f"{type(cause).__name__}: {cause}")
    sys.exit(1)
onnx.checker.check_model(out, full_check=True)
print([(n.op_type, list(n.input)) for n in out.graph.node])
print("ok")
