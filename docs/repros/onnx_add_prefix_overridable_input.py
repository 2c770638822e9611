"""onnx.compose.add_prefix renames a graph input that has a default, though rename_inputs=False.

y = Add(x, b), `b` a graph input whose initializer [1, 1, 1] is its default (IR.md §Graphs: a caller may override
it), opset 13, IR 8. add_prefix(m, "p_", rename_inputs=False, rename_outputs=False) keeps `x` and renames the
initializer `b` and, through the same name map, the graph input `b` to `p_b`: the model's interface changes, and a
caller feeding `b` (as the original allows) is refused ("invalid input name").
Exits 1 while the bug is there, 0 once the fed `b` gives the original's result."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, compose, helper, numpy_helper

graph = helper.make_graph(
    [helper.make_node("Add", ["x", "b"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]), helper.make_tensor_value_info("b", TensorProto.FLOAT, [3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    [numpy_helper.from_array(np.ones(3, np.float32), "b")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
out = compose.add_prefix(model, "p_", rename_inputs=False, rename_outputs=False)
print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
print("graph inputs before", [v.name for v in model.graph.input], "after", [v.name for v in out.graph.input])
feeds = {"x": np.arange(3, dtype=np.float32), "b": np.full(3, 5, np.float32)}


def run(m):
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, feeds)[0]


want = run(model)
try:
    got = run(out)
except Exception as exc:  # noqa: BLE001 - the refusal is the bug
    print("BUG: feeding b is refused after add_prefix:", type(exc).__name__, str(exc)[:160])
    sys.exit(1)
print("fed b: original", want, "prefixed", got)
sys.exit(0 if np.array_equal(want, got) else 1)
