"""onnxscript 0.7.2 ``rewrite`` (default rules; rule ``collapse_slice_rule``, ``rewriter/rules/common/_collapse_slices.py``)
removes ``Slice(x, [0], [INT64_MAX], [1], [1])``, x float[N, 8], as a no-op, but keeps it when the start is written
``-8`` or ``INT64_MIN``. Operators.md Slice: a negative start has the dim added (-8 + 8 = 0), then starts are
clamped to [0, dim] (INT64_MIN + 8 clamps to 0), so the three Slices are one computation (x itself). The rule's
check (``_check_if_redundant_slice``) compares the start with 0 as written. Exit 1 while the bug is
present."""

import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxscript import rewriter

BIG, SMALL = np.iinfo(np.int64).max, np.iinfo(np.int64).min


def model(start):
    values = {"b0": [start], "e": [BIG], "ax": [1], "st": [1]}
    inits = [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in values.items()]
    nodes = [helper.make_node("Slice", ["x", "b0", "e", "ax", "st"], ["s"]), helper.make_node("Relu", ["s"], ["y"])]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 8])
    graph = helper.make_graph(nodes, "g", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


x = np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32)
ops = {}
for start in (0, -8, SMALL):
    m = model(start)
    out = rewriter.rewrite(m)
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.testing.assert_array_equal(got, np.maximum(x, 0))  # the same computation
    ops[start] = [n.op_type for n in out.graph.node]
    print(f"start {start}:", ops[start])
if "Slice" not in ops[0] and any("Slice" in ops[s] for s in (-8, SMALL)):
    print("BUG: collapse_slice keeps a no-op Slice whose start is spelled -dim or INT64_MIN")
    sys.exit(1)
print("ok")
