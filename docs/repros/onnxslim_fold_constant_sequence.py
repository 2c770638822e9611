"""onnxslim's constant folding raises on a constant value of sequence type.

s = Slice(SequenceAt(SequenceConstruct(Shape(x)), 0), [1], [3], [0]), `x: float[2, 3, 4, 5]`, opset 18, IR 8 (a valid
model: Operators.md SequenceConstruct / SequenceAt; the checker accepts it, onnxruntime runs it). `onnxslim.slim`
folds the constant part (Shape of a static input), evaluates the sequence value `SequenceConstruct(...)` to a Python
list, then reads `values.nbytes` for its size check (`onnx_graphsurgeon/ir/graph.py` `Graph.fold_constants`):
"AttributeError: 'list' object has no attribute 'nbytes'". The same Slice of the Shape alone is folded.
Exits 1 while the bug is there, 0 once slim returns a model that gives [3, 4]."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxslim
from onnx import TensorProto, helper, numpy_helper

nodes = [
    helper.make_node("Shape", ["x"], ["full_pre"]),
    helper.make_node("SequenceConstruct", ["full_pre"], ["full_seq"]),
    helper.make_node("SequenceAt", ["full_seq", "pos"], ["full"]),
    helper.make_node("Slice", ["full", "starts", "ends", "axes"], ["s"]),
]
inits = [
    numpy_helper.from_array(np.array(v, np.int64), n)
    for n, v in (("pos", 0), ("starts", [1]), ("ends", [3]), ("axes", [0]))
]
graph = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4, 5])],
    [helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
x = np.zeros((2, 3, 4, 5), np.float32)
want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
print("original model's s:", want.tolist())
try:
    out = onnxslim.slim(model)
except Exception as exc:  # noqa: BLE001 - the defect is this exception
    print(f"BUG: onnxslim {onnxslim.__version__} slim raises {type(exc).__name__}: {exc}")
    sys.exit(1)
names = {i.name for i in out.graph.input}
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(
    None, {"x": x} if "x" in names else {}
)[0]
print("slimmed model's s:", got.tolist())
sys.exit(0 if got.tolist() == want.tolist() else 1)
