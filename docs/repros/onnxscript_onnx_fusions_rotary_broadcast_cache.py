"""onnxscript 0.7.2 onnx_fusions.fuse() (RotaryEmbedding23Fusion, rewriter/rules/fusion/_rotary_embedding.py) fuses
x * Unsqueeze(Cos(Concat(f, f)), [1]) + rotate_half(x) * Unsqueeze(Sin(Concat(f, f)), [1]) into
RotaryEmbedding-23(x, Cos(f), Sin(f)) checking x's shape only. A frequency table shared by the batch, f: [1, S, 4]
for x: [2, 2, S, 8], is valid under Mul (multidirectional broadcasting), but RotaryEmbedding-23's caches without
position_ids are [batch_size, sequence_length, head_size / 2] (Operators.md): the fused model fails to run in
onnxruntime where the input model runs. Exit 1 while the bug is present (2 where onnxruntime cannot run
opset 23)."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

try:
    import onnx_ir as ir
except ImportError:  # onnxscript releases bundling their IR
    from onnxscript import ir
from onnxscript.rewriter.onnx_fusions import fuse

i64 = lambda name, v: numpy_helper.from_array(np.array(v, np.int64), name)  # noqa: E731
nodes = [
    helper.make_node("Concat", ["f", "f"], ["ff"], axis=-1),
    helper.make_node("Cos", ["ff"], ["c"]),
    helper.make_node("Sin", ["ff"], ["s"]),
    helper.make_node("Unsqueeze", ["c", "one"], ["c4"]),
    helper.make_node("Unsqueeze", ["s", "one"], ["s4"]),
    helper.make_node("Mul", ["x", "c4"], ["xc"]),
    helper.make_node("Slice", ["x", "zero", "half", "axis3", "one"], ["x1"]),
    helper.make_node("Slice", ["x", "half", "big", "axis3", "one"], ["x2"]),
    helper.make_node("Neg", ["x2"], ["n2"]),
    helper.make_node("Concat", ["n2", "x1"], ["rot"], axis=-1),
    helper.make_node("Mul", ["rot", "s4"], ["rs"]),
    helper.make_node("Add", ["xc", "rs"], ["y"]),
]
inits = [i64("zero", [0]), i64("half", [4]), i64("big", [2**63 - 1]), i64("axis3", [3]), i64("one", [1])]
graph = helper.make_graph(
    nodes,
    "g",
    [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2, 3, 8]),
        helper.make_tensor_value_info("f", TensorProto.FLOAT, [1, 3, 4]),
    ],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2, 3, 8])],
    inits,
)
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)], ir_version=10)
onnx.checker.check_model(m, full_check=True)  # the input is valid
im = ir.serde.deserialize_model(m)
counts = fuse(im)
out = ir.serde.serialize_model(im)
print(counts, [n.op_type for n in out.graph.node])
rng = np.random.default_rng(0)
feeds = {
    "x": rng.standard_normal((2, 2, 3, 8)).astype(np.float32),
    "f": rng.standard_normal((1, 3, 4)).astype(np.float32),
}
try:
    want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
except Exception as exc:  # noqa: BLE001 - an onnxruntime without opset 23 cannot judge (exit 2, not the bug)
    print("the input model does not run here:", str(exc).strip().splitlines()[0][:200])
    sys.exit(2)
try:
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
except Exception as exc:  # noqa: BLE001 - onnxruntime's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:300])
    sys.exit(1)
if not np.allclose(want, got, atol=1e-5):
    print("BUG: max abs error", float(np.abs(want - got).max()))
    sys.exit(1)
print("ok")
