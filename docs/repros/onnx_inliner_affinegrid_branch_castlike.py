"""onnx 1.23.2's inliner with schema functions (`onnx.inliner.inline_selected_functions(model, [], exclude=True,
inline_schema_functions=True)`, onnx/inliner/inliner.cc) aborts on every AffineGrid-20 node: onnx's own function body
of AffineGrid computes `float_zero_1d = CastLike(ConstantOfShape(...), theta)` inside a branch of an `If`, and
inlining that nested CastLike (a context-dependent function) looks the type of the branch-local value up among the
main graph's inputs, outputs and value_info, where no branch value is ("GetType: Assertion `false` failed: Type
unknown for float_zero_1d___1"). Every input here is a graph input and the attribute is written out, so neither the
initializer lookup nor an omitted default is involved. The model is valid and onnxruntime runs it. Exit 1 while the
bug is present."""

import sys

import numpy as np
import onnx
import onnx.inliner
import onnxruntime as ort
from onnx import helper

graph = helper.make_graph(
    [helper.make_node("AffineGrid", ["theta", "size"], ["grid"], align_corners=0)],
    "g",
    [
        helper.make_tensor_value_info("theta", onnx.TensorProto.FLOAT, [2, 2, 3]),
        helper.make_tensor_value_info("size", onnx.TensorProto.INT64, [4]),
    ],
    [helper.make_tensor_value_info("grid", onnx.TensorProto.FLOAT, [2, 3, 4, 2])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=9)
onnx.checker.check_model(model, full_check=True)
feeds = {
    "theta": np.array([[[1, 0, 0], [0, 1, 0]], [[0.5, 0.2, 0.1], [-0.3, 1.2, 0.0]]], np.float32),
    "size": np.array([2, 1, 3, 4], np.int64),
}
expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
try:
    out = onnx.inliner.inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)
except Exception as exc:  # noqa: BLE001
    print("BUG:", type(exc).__name__, str(exc).splitlines()[0][:300])
    sys.exit(1)
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
print([n.op_type for n in out.graph.node])
print("ok" if np.allclose(got, expected, atol=1e-5) else "BUG: values differ")
sys.exit(0 if np.allclose(got, expected, atol=1e-5) else 1)
