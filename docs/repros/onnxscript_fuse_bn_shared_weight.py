"""onnxscript's optimizer fusing BatchNormalization into a Gemm whose weight initializer a second Gemm also reads.

Two chains `Neg(BatchNormalization(Gemm(a, w, b)))` on inputs of different sizes share every initializer
(IR.md: any number of nodes may read one initializer). onnxscript 0.5.4 fuses the first chain and writes the fused
weight into `w` in place, so the second chain, which keeps its BatchNormalization, applies it twice. 0.7.0 and
0.7.2 leave both chains as they are. Needs onnx, onnxruntime, onnxscript, numpy; exits 1 while the bug is present.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxscript import optimizer

rng = np.random.default_rng(0)
inits = [
    numpy_helper.from_array(rng.standard_normal(s).astype(np.float32), n)
    for n, s in (("w", (4, 4)), ("b", (4,)), ("scale", (4,)), ("bias", (4,)), ("mean", (4,)))
]
inits.append(numpy_helper.from_array(rng.uniform(0.5, 2, 4).astype(np.float32), "var"))
nodes = [helper.make_node("Concat", ["x", "x"], ["x2"], axis=0)]
for s in ("", "2"):
    nodes += [
        helper.make_node("Gemm", [f"x{s}", "w", "b"], [f"g{s}"]),
        helper.make_node("BatchNormalization", [f"g{s}", "scale", "bias", "mean", "var"], [f"n{s}"]),
        helper.make_node("Neg", [f"n{s}"], [f"y{s}"]),
    ]
graph = helper.make_graph(
    nodes,
    "twin",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
    [
        helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4]),
        helper.make_tensor_value_info("y2", TensorProto.FLOAT, [4, 4]),
    ],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model, full_check=True)


def run(m):
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, {"x": np.arange(8, dtype=np.float32).reshape(2, 4)})


want, got = run(model), run(optimizer.optimize(model))
bad = [name for name, a, b in zip(("y", "y2"), want, got) if not np.allclose(a, b, rtol=1e-4, atol=1e-5)]
print("outputs differing after optimize:", bad or "none")
sys.exit(1 if bad else 0)
