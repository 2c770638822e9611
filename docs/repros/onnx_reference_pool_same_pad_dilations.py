"""onnx's reference evaluator computes AveragePool's and LpPool's SAME_UPPER / SAME_LOWER padding from the undilated
kernel, so with dilations > 1 the last windows run past the padded input and read nothing; onnxscript's constant
folding, which evaluates nodes with it, folds those wrong values into the model.

Operators.md AveragePool (dilations since opset 19) and LpPool (since 18), attribute auto_pad: the output's spatial
size is ceil(input / stride), and the pad needed is (output - 1) * stride + ((kernel - 1) * dilation + 1) - input.
`onnx/reference/ops/op_pool_common.py`, `get_pad_shape`, adds `kernel_spatial_shape[i]` instead of the dilated size.
`p = AveragePool(c, kernel_shape=[3], strides=[1], dilations=[2], auto_pad=SAME_UPPER)`, `c = [0, 1, 2, 3, 4]` as
float[1, 1, 5], opset 19: the spec's windows give [1, 2, 2, 2, 3] (count_include_pad = 0); the reference evaluator
returns [2, 2, 2, 0, 0] (LpPool, p = 2: [3.16, 4.47, 3.16, 0, 0] for [2, 3.16, 4.47, 3.16, 4.47]); the same node
with the spec's pads written out (pads = [2, 2]) gives the right values. `onnxscript.optimizer.optimize` on
`y = Add(x, p)` folds p to [2, 2, 2, 0, 0]. Exits 1 while the evaluator (or the fold) differs from the spec's windows,
0 once both agree.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

C = np.arange(5, dtype=np.float32)
K, D = 3, 2


def spec(op):
    """The spec's windows: 5 outputs (stride 1), pads 2 + 2 from the dilated kernel, padded cells left out."""
    y = []
    for i in range(5):
        w = np.array([C[t] for t in (i - 2 + j * D for j in range(K)) if 0 <= t < 5])
        y.append(w.mean() if op == "AveragePool" else np.sqrt((w**2).sum()))
    return np.array(y, np.float32)


def model(op, **pads):
    node = helper.make_node(op, ["c"], ["p"], kernel_shape=[K], strides=[1], dilations=[D], **pads)
    g = helper.make_graph(
        [node, helper.make_node("Add", ["x", "p"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 5])],
        [numpy_helper.from_array(C.reshape(1, 1, 5), "c")],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)


bad = False
zero = {"x": np.zeros((1, 1, 5), np.float32)}
for op in ("AveragePool", "LpPool"):
    want = spec(op)
    same = model(op, auto_pad="SAME_UPPER")
    onnx.checker.check_model(same, full_check=True)
    got = ReferenceEvaluator(same).run(None, zero)[0].ravel()
    explicit = ReferenceEvaluator(model(op, pads=[2, 2])).run(None, zero)[0].ravel()
    ok = np.allclose(got, want, atol=1e-5)
    print(
        f"{op} SAME_UPPER: reference {got.tolist()}, spec {want.tolist()}, pads [2, 2] written out {explicit.tolist()}"
    )
    bad |= not ok
    try:
        from onnxscript import optimizer
    except ImportError:
        continue
    folded = optimizer.optimize(same)
    consts = [numpy_helper.to_array(t).ravel() for t in folded.graph.initializer if t.name != "c"]
    if consts:
        print(f"  onnxscript.optimizer.optimize folds it to {consts[0].tolist()}")
        bad |= not np.allclose(consts[0], want, atol=1e-5)
sys.exit(1 if bad else 0)
