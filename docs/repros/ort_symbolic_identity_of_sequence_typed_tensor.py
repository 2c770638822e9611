"""onnxruntime's symbolic shape inference types the output of an Identity of a sequence as a tensor.

``e = SequenceEmpty<dtype=float>()``, ``ei = Identity(e)``, ``s = SequenceInsert(ei, a)``, ``a: float[N, 3]``, opset 18:
Identity takes and returns any tensor or sequence type since opset 14 (Operators.md Identity-14, type constraint
``V``), so ``ei`` is a ``seq(tensor(float))`` and the model is valid (checker, onnxruntime run it).
``SymbolicShapeInference.infer_shapes(m)`` (``tools/symbolic_shape_infer.py``: the Identity handler,
``_pass_on_shape_and_type``, writes ``make_tensor_value_info`` for every input it is given) records ``ei`` and ``s``
as ``tensor(float)``: the checker refuses the output ("type case mismatch. existing=tensor_type
inferred=sequence_type") and onnxruntime will not load it. Without the Identity the output is valid.

Needs onnx, onnxruntime, numpy. Exits 1 while the inferred model is refused where the input runs.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

graph = helper.make_graph(
    [
        helper.make_node("SequenceEmpty", [], ["e"], dtype=TensorProto.FLOAT),
        helper.make_node("Identity", ["e"], ["ei"]),
        helper.make_node("SequenceInsert", ["ei", "a"], ["s"]),
    ],
    "identity_of_sequence",
    [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 3])],
    [helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, None)],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
a = np.ones((2, 3), np.float32)


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"a": a})[0]


expected = run(model)  # a sequence of one (2, 3) tensor
inferred = SymbolicShapeInference.infer_shapes(model)
print({vi.name: vi.type.WhichOneof("value") for vi in inferred.graph.value_info})
try:
    onnx.checker.check_model(inferred, full_check=True)
    got = run(inferred)
except Exception as exc:  # onnx's ValidationError / InferenceError, onnxruntime's Fail
    print("BUG:", str(exc).strip().splitlines()[0][:160])
    sys.exit(1)
ok = len(got) == len(expected) and all(np.array_equal(g, e) for g, e in zip(got, expected))
print("ok" if ok else "BUG: values differ")
sys.exit(0 if ok else 1)
