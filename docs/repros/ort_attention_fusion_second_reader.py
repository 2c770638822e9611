"""onnxruntime 1.32.0 ORT_ENABLE_EXTENDED (AttentionFusion, core/optimizer/attention_fusion.cc) fuses a BERT
self-attention block into com.microsoft Attention although the scores `qk = MatMul(q, k)` are also read by
another node (here a Neg whose result is a graph output; IR.md lets a value have any number of readers). The
fusion removes the MatMul and leaves that reader dangling: the session fails to load ("Node input 'qk' is not a
graph input, initializer, or output of a previous node"), while ORT_DISABLE_ALL, ORT_ENABLE_BASIC and
ORT_ENABLE_EXTENDED with AttentionFusion disabled load and agree. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

H, HEADS = 8, 2
rng = np.random.default_rng(0)
f32 = np.float32
inits = {f"w{n}": rng.standard_normal((H, H)).astype(f32) * 0.3 for n in "qkvo"}
inits |= {f"b{n}": rng.standard_normal(H).astype(f32) * 0.1 for n in "qkvo"}
inits |= {
    "g": np.ones(H, f32), "b": np.zeros(H, f32), "two": np.array(2, f32), "eps": np.array(1e-5, f32),
    "sqrt_head": np.array(np.sqrt(H // HEADS), f32), "one": np.array(1, f32), "neg": np.array(-10000, f32),
    "shape4": np.array([0, 0, HEADS, H // HEADS], np.int64), "shape3": np.array([0, 0, H], np.int64),
}
N = helper.make_node
nodes = [  # LayerNorm, decomposed (LayerNormFusion makes it a LayerNormalization first)
    N("ReduceMean", ["x"], ["m"], axes=[-1]), N("Sub", ["x", "m"], ["d"]), N("Pow", ["d", "two"], ["p"]),
    N("ReduceMean", ["p"], ["v"], axes=[-1]), N("Add", ["v", "eps"], ["ve"]), N("Sqrt", ["ve"], ["s"]),
    N("Div", ["d", "s"], ["nm"]), N("Mul", ["nm", "g"], ["t"]), N("Add", ["t", "b"], ["ln"]),
]
for n, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]), ("v", [0, 2, 1, 3])):
    nodes += [
        N("MatMul", ["ln", f"w{n}"], [f"{n}m"]), N("Add", [f"{n}m", f"b{n}"], [f"{n}a"]),
        N("Reshape", [f"{n}a", "shape4"], [f"{n}r"]), N("Transpose", [f"{n}r"], [f"{n}t"], perm=perm),
    ]
nodes += [
    N("MatMul", ["qt", "kt"], ["qk"]), N("Div", ["qk", "sqrt_head"], ["qd"]),
    N("Unsqueeze", ["mask"], ["mu1"], axes=[1]), N("Unsqueeze", ["mu1"], ["mu2"], axes=[2]),
    N("Cast", ["mu2"], ["mc"], to=TensorProto.FLOAT), N("Sub", ["one", "mc"], ["ms"]), N("Mul", ["ms", "neg"], ["mm"]),
    N("Add", ["qd", "mm"], ["sa"]), N("Softmax", ["sa"], ["sm"], axis=3), N("MatMul", ["sm", "vt"], ["ctx"]),
    N("Transpose", ["ctx"], ["ct"], perm=[0, 2, 1, 3]), N("Reshape", ["ct", "shape3"], ["cr"]),
    N("MatMul", ["cr", "wo"], ["om"]), N("Add", ["om", "bo"], ["oa"]), N("Add", ["oa", "ln"], ["y"]),
    N("Neg", ["qk"], ["qk_neg"]),  # the second reader of the scores
]
graph = helper.make_graph(
    nodes,
    "attention",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "S", H]),
     helper.make_tensor_value_info("mask", TensorProto.INT64, ["N", "S"])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", "S", H]),
     helper.make_tensor_value_info("qk_neg", TensorProto.FLOAT, ["N", HEADS, "S", "S"])],
    [numpy_helper.from_array(v, k) for k, v in inits.items()],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)], ir_version=7)
onnx.checker.check_model(model, full_check=True)  # the input is valid
feeds = {"x": rng.standard_normal((2, 4, H)).astype(f32), "mask": np.ones((2, 4), np.int64)}


def run(level, disabled=()):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    sess = ort.InferenceSession(model.SerializeToString(), so, ["CPUExecutionProvider"], disabled_optimizers=disabled)
    return sess.run(None, feeds)


want = run(ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
without = run(ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED, ["AttentionFusion"])
assert all(np.allclose(a, b, atol=1e-4) for a, b in zip(want, without))
try:
    got = run(ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED)
except Exception as exc:  # noqa: BLE001 - onnxruntime's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
if not all(np.allclose(a, b, atol=1e-4) for a, b in zip(want, got)):
    print("BUG: outputs differ")
    sys.exit(1)
print("ok")
