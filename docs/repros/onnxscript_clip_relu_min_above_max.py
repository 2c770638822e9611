"""onnxscript 0.7.2 rewriter.rewrite (default rules), FuseSuccessiveClipRelu and FuseSuccessiveClip
(rewriter/rules/common/_fuse_relus_clips.py).

Relu(Clip(x, lo, hi)) is fused to Clip(x, max(0, lo), hi) and Clip(Clip(x, l1, h1), l2, h2) to
Clip(x, max(l1, l2), min(h1, h2)). When the fused min exceeds the fused max (hi < 0; l2 > h1) the result
differs: Clip-13 sets every value to `max` when min > max (Operators.md, Clip), so the fused node yields hi
(or h1) where the original yields 0 (or l2). Exits 1 while the outputs differ.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxscript import rewriter


def model(nodes, consts) -> onnx.ModelProto:
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])],
        [numpy_helper.from_array(np.array(v, np.float32), k) for k, v in consts.items()],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(m, full_check=True)
    # value_info for the inner Clip's output: without it extract_min_max fails on the missing dtype
    # (a different, known crash of the same rules), which would hide the wrong result
    return onnx.shape_inference.infer_shapes(m, strict_mode=True)


def run(m, x):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
cases = {
    "Relu(Clip(x, -0.5, -0.5))": model(
        [helper.make_node("Clip", ["x", "lo", "hi"], ["a"]), helper.make_node("Relu", ["a"], ["y"])],
        {"lo": -0.5, "hi": -0.5},
    ),
    "Clip(Clip(x, 0, 1), 2, 3)": model(
        [helper.make_node("Clip", ["x", "l1", "h1"], ["a"]), helper.make_node("Clip", ["a", "l2", "h2"], ["y"])],
        {"l1": 0.0, "h1": 1.0, "l2": 2.0, "h2": 3.0},
    ),
}
bad = 0
for label, m in cases.items():
    out = rewriter.rewrite(m)
    want, got = run(m, x), run(out, x)
    ops = [n.op_type for n in out.graph.node]
    diff = float(np.abs(want - got).max())
    print(f"{label}: after rewrite {ops}; expected {np.unique(want)}, got {np.unique(got)}; max abs diff {diff}")
    bad += diff > 0
sys.exit(1 if bad else 0)
