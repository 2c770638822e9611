"""onnx's SoftmaxCrossEntropyLoss-13 allows bfloat16 scores, but its function body calls NegativeLogLikelihoodLoss,
which at opsets 13 to 21 does not (onnx 1.23.2); onnxruntime, which has no bfloat16 kernel and expands the body,
refuses the valid model.

Operators.md SoftmaxCrossEntropyLoss-13: T is one of float16, float, double, bfloat16. Its context-dependent body
(``defs/math/defs.cc``) computes ``NegativeLogLikelihoodLoss(LogSoftmax(scores), labels)`` at the caller's opset, and
NegativeLogLikelihoodLoss-13's T is float16, float or double (bfloat16 only from NegativeLogLikelihoodLoss-22). So a
bfloat16 SoftmaxCrossEntropyLoss at opset 13 … 21 has a body no runtime may run; the full checker accepts the model
(it does not type the body).

Needs onnx, onnxruntime. Exits 1 while SoftmaxCrossEntropyLoss-13 admits bfloat16 where its body's
NegativeLogLikelihoodLoss does not, or onnxruntime refuses the model.
"""

import sys

import onnx
import onnx.defs
from onnx import TensorProto, helper
from onnxruntime import InferenceSession


def types(op: str, opset: int) -> list[str]:
    return list(onnx.defs.get_schema(op, opset).type_constraints[0].allowed_type_strs)


sce, nll = types("SoftmaxCrossEntropyLoss", 13), types("NegativeLogLikelihoodLoss", 13)
print(f"onnx {onnx.__version__}: SoftmaxCrossEntropyLoss-13 T {sce}; NegativeLogLikelihoodLoss-13 T {nll}")
graph = helper.make_graph(
    [helper.make_node("SoftmaxCrossEntropyLoss", ["scores", "labels"], ["loss"])],
    "g",
    [helper.make_tensor_value_info("scores", TensorProto.BFLOAT16, [2, 3]),
     helper.make_tensor_value_info("labels", TensorProto.INT64, [2])],
    [helper.make_tensor_value_info("loss", TensorProto.BFLOAT16, [])],
)
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
onnx.checker.check_model(m, full_check=True)
print("the full checker accepts the bfloat16 model at opset 13")
refused = ""
try:
    InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
except Exception as e:  # noqa: BLE001 - the refusal is the evidence
    refused = str(e).splitlines()[0]
    print(f"onnxruntime refuses it: {refused[:220]}")
if "tensor(bfloat16)" in sce and "tensor(bfloat16)" not in nll or refused:
    print("BUG: SoftmaxCrossEntropyLoss-13's body calls NegativeLogLikelihoodLoss on a type opset 13 does not give it")
    sys.exit(1)
print("ok")
