"""onnxoptimizer 0.4.2, pass fuse_pad_into_pool (also in the default optimize()), passes/fuse_pad_into_pool.h: a Pad
(zeros around H and W) read by a pool is folded into the pool's ``pads``. Two models where that changes the values:

1. AveragePool with pads of its own and count_include_pad omitted (0: its own padding is not counted, Operators.md
   AveragePool). The pass adds the Pad's amounts to the pool's pads and sets count_include_pad=1, so the pool's own
   padding is counted too (new; onnxruntime's own Pad fusion declines this case since microsoft/onnxruntime#23190).
2. MaxPool: its padded elements are ignored (Operators.md MaxPool, as if -inf), so a window whose real values are all
   negative gives its maximum instead of the padded 0 (known: onnxsim/onnxsim#290, fix proposed in
   onnx/optimizer#318).
3. A pool whose auto_pad is VALID or SAME_* (explicit pads are used only when auto_pad is NOTSET, Operators.md
   MaxPool / AveragePool): the pass writes the Pad's amounts into ``pads`` and keeps auto_pad, so the padding is
   dropped (VALID: output [1, 1, 2, 2] where the model gives [1, 1, 4, 4]); with SAME_* the checker's inference
   rejects the output (its fuse_pad_into_conv checks auto_pad since onnx/optimizer#251; this pass does not).

Exit 1 while any is present."""

import sys

import numpy as np
import onnx
import onnxoptimizer
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnxoptimizer", onnxoptimizer.__version__)


def model(pool, out_hw, **attrs):  # out_hw None: the output's shape is left to onnx shape inference
    pads = numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "pads")
    nodes = [helper.make_node("Pad", ["x", "pads"], ["p"]), helper.make_node(pool, ["p"], ["y"], **attrs)]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])],
        [
            helper.make_tensor_value_info(
                "y", TensorProto.FLOAT, [1, 1, out_hw, out_hw] if out_hw else ["a", "b", "c", "d"]
            )
        ],
        initializer=[pads],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    onnx.checker.check_model(m, full_check=True)
    return m


rng = np.random.default_rng(0)
cases = [
    ("AveragePool, own pads", model("AveragePool", 6, kernel_shape=[3, 3], pads=[1, 1, 1, 1]), rng.standard_normal),
    ("MaxPool, negative input", model("MaxPool", 4, kernel_shape=[3, 3]), lambda s: -1 - rng.random(s)),
    (
        "AveragePool, auto_pad VALID",
        model("AveragePool", 4, kernel_shape=[3, 3], auto_pad="VALID", count_include_pad=1),
        rng.standard_normal,
    ),
]
failed = False
for what, m, draw in cases:
    x = {"x": draw((1, 1, 4, 4)).astype(np.float32)}

    def run(mm, x=x):
        return ort.InferenceSession(mm.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0]

    for passes in (["fuse_pad_into_pool"], None):
        out = onnxoptimizer.optimize(m, passes)
        a, b = run(m), run(out)
        err = float(np.abs(a - b).max()) if a.shape == b.shape else float("inf")
        print(what, passes or "default passes", [n.op_type for n in out.graph.node], "max abs difference", err)
        if err > 1e-5:
            print("BUG:", what, "computes other values after fuse_pad_into_pool")
            failed = True
sys.exit(1 if failed else 0)
