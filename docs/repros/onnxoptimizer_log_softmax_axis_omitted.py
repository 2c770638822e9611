"""onnxoptimizer 0.4.2, pass fuse_consecutive_log_softmax (also in the default optimize()): Log(Softmax(x)) with
Softmax's axis omitted (its default, -1 at opset 13 and 1 before, Operators.md Softmax) makes the pass abort with
"required undefined attribute 'axis'" (it copies softmax_node->i(kaxis) into the new LogSoftmax,
passes/fuse_consecutive_log_softmax.h); the same model with axis=-1 written is fused into LogSoftmax. Exit 1 while
the bug is present."""

import sys

import numpy as np
import onnx
import onnxoptimizer
import onnxruntime as ort
from onnx import TensorProto, helper

print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnxoptimizer", onnxoptimizer.__version__)


def model(attrs):
    nodes = [helper.make_node("Softmax", ["x"], ["s"], **attrs), helper.make_node("Log", ["s"], ["y"])]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    onnx.checker.check_model(m, full_check=True)  # both spellings are valid
    return m


x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


# the two spellings compute the same values
assert np.array_equal(run(model({})), run(model({"axis": -1})))
written = onnxoptimizer.optimize(model({"axis": -1}), ["fuse_consecutive_log_softmax"])
print("axis=-1 written:", [n.op_type for n in written.graph.node])
failed = False
for passes in (["fuse_consecutive_log_softmax"], None):
    try:
        out = onnxoptimizer.optimize(model({}), passes)
        print("axis omitted,", passes or "default passes", ":", [n.op_type for n in out.graph.node])
    except Exception as exc:  # noqa: BLE001 - the pass's abort surfaces as RuntimeError
        print("BUG: axis omitted,", passes or "default passes", ":", str(exc).strip()[-80:])
        failed = True
sys.exit(1 if failed else 0)
