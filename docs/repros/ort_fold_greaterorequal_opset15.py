"""onnxruntime 1.32.0 at ORT_ENABLE_BASIC leaves GreaterOrEqual / LessOrEqual of two initializers unfolded at
opsets 12 to 15: y = Add(x, Cast(GreaterOrEqual(a, b), to=FLOAT)), a and b float[3] initializers. Every input of the
comparison is a constant, so ConstantFolding computes it at session creation: 1.22.1 and 1.25.1 do (one node left,
the Add), and so does 1.32.0 at opset 16. At opsets 12-15 the two ops are function ops whose schema has no shape
inference (GreaterOrEqual-12, LessOrEqual-12; GreaterOrEqual-16 added one), their output has no shape, and the
output-size guard of ConstantFolding (onnxruntime 1.27+) skips every node whose output size it cannot estimate.
Greater (which has inference) is folded at every opset. The same in 1.28.0. Exit 1 while the bug is present."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper


def kept(op: str, opset: int) -> list[str]:
    graph = helper.make_graph(
        [
            helper.make_node(op, ["a", "b"], ["c"]),
            helper.make_node("Cast", ["c"], ["f"], to=onnx.TensorProto.FLOAT),
            helper.make_node("Add", ["x", "f"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3])],
        [
            numpy_helper.from_array(np.array([1.0, 2.0, 3.0], np.float32), "a"),
            numpy_helper.from_array(np.array([2.0, 2.0, 2.0], np.float32), "b"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    onnx.checker.check_model(model, full_check=True)
    with tempfile.TemporaryDirectory() as d:
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        so.optimized_model_filepath = os.path.join(d, "opt.onnx")
        sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        got = sess.run(None, {"x": np.zeros(3, np.float32)})[0]
        a, b = np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0])
        want = {"GreaterOrEqual": a >= b, "LessOrEqual": a <= b, "Greater": a > b}[op].astype(np.float32)
        assert np.array_equal(got, want), got  # the values are right: only the fold is missed
        return [n.op_type for n in onnx.load(so.optimized_model_filepath).graph.node]


print("onnxruntime", ort.__version__)
bad = False
for op in ("GreaterOrEqual", "LessOrEqual", "Greater"):
    for opset in (12, 15, 16):
        nodes = kept(op, opset)
        print(f"{op}-{opset}: nodes after ORT_ENABLE_BASIC: {nodes}")
        bad |= nodes != ["Add"]
sys.exit(1 if bad else 0)
