"""onnxruntime 1.32.0 (CPU) runs an opset-23 or opset-24 Attention whose query sequence length is 0 into an error
("Q sequence length must be greater than 0", `core/providers/cpu/llm/attention_parameters.h`), while the same
node at opset 25 returns the empty output [batch, heads, 0, head_size], as the reference evaluator does for every
opset. A dim may be 0 (IR.md) and Operators.md Attention sets no lower bound on q_sequence_length; Attention-25
only adds the window attributes (absent: no window), so `onnx.version_converter` taking a model from 25 to 24 keeps
the node as it is and the converted model fails where the original ran (the hunt's `onnx:convert-opset-down`
signature `vary:bind-zero@n3`). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator


def model(opset):
    ins = [
        helper.make_tensor_value_info(n, TensorProto.FLOAT, ["b", "h", s, "d"])
        for n, s in [("Q", "q"), ("K", "k"), ("V", "k")]
    ]
    out = helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["b", "h", "q", "d"])
    graph = helper.make_graph([helper.make_node("Attention", ["Q", "K", "V"], ["Y"])], "g", ins, [out])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=10)


rng = np.random.default_rng(0)
feeds = {
    "Q": np.zeros((2, 2, 0, 4), np.float32),
    "K": rng.standard_normal((2, 2, 5, 4)).astype(np.float32),
    "V": rng.standard_normal((2, 2, 5, 4)).astype(np.float32),
}
bad = []
for opset in (23, 24, 25):
    want = ReferenceEvaluator(model(opset)).run(None, feeds)[0]
    try:
        got = ort.InferenceSession(model(opset).SerializeToString(), providers=["CPUExecutionProvider"]).run(
            None, feeds
        )[0]
        print(f"opset {opset}: {got.shape} (reference {want.shape})")
    except Exception as exc:  # noqa: BLE001
        print(f"opset {opset}: fails: {str(exc).strip().splitlines()[0][-80:]} (reference {want.shape})")
        bad.append(opset)
if bad:
    print("BUG: an empty query sequence fails at opset", bad)
    sys.exit(1)
print("ok")
