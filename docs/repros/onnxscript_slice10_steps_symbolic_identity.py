"""onnxscript 0.7.2 optimize() replaces s = Slice-10(x, starts=[0], ends=[2], axes=[1], steps=[1]),
x: float[n2, n3, n4] (symbolic dims), s read by a Relu (no value_info for s), with Identity: the output of a 3x3x3 input becomes (3, 3, 3)
instead of (3, 2, 3). With `steps` omitted (its default, [1]) or at opset 13 the Slice is kept.
Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript.optimizer
from onnx import helper, numpy_helper


def i64(v, n):
    return numpy_helper.from_array(np.array(v, np.int64), n)


graph = helper.make_graph(
    [
        helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["s"]),
        helper.make_node("Relu", ["s"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["n2", "n3", "n4"])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["n2", "d1", "n4"])],
    [i64([0], "starts"), i64([2], "ends"), i64([1], "axes"), i64([1], "steps")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 10)], ir_version=5)
onnx.checker.check_model(model, full_check=True)
out = onnxscript.optimizer.optimize(model)
print("nodes after optimize:", [n.op_type for n in out.graph.node])
x = np.random.default_rng(0).standard_normal((3, 3, 3)).astype(np.float32)


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


a, b = run(model), run(out)
print("before", a.shape, "after", b.shape)
sys.exit(0 if a.shape == b.shape and np.allclose(a, b) else 1)
