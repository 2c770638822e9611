"""onnxconverter-common's graph optimizer loses a graph output's name when it fuses away the node that writes it.

``y = BatchNormalization(Conv(x, w), scale, shift, mean, var)``, ``x: float[1, 3, 8, 8]``, every weight an
initializer, opset 17 (the Conv+BN pattern every converter writes). ``ConvBatchNormOptimizer`` (onnxconverter-common
1.16.0, from opset 9) folds the BatchNormalization into the Conv's weight and bias and deletes it; the Conv keeps its
own output name ``c``, so nothing writes the graph output ``y`` any more, and ``const_folding_optimizer`` then raises
``KeyError: 'y'`` looking up its producer. (IR.md §Graphs: the graph's output names are its interface; a rewrite
must keep them.)

Needs onnx, onnxruntime, onnxconverter-common, numpy. Exits 1 while the pattern followed by a Relu (``y = Relu(BN(...))``)
is fused to a model with the same outputs and the pattern ending at the graph output crashes.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

VI = helper.make_tensor_value_info
RNG = np.random.default_rng(0)
W = {
    "w": RNG.standard_normal((4, 3, 3, 3)).astype(np.float32),
    "scale": RNG.uniform(0.5, 1.5, 4).astype(np.float32),
    "shift": RNG.standard_normal(4).astype(np.float32),
    "mean": RNG.standard_normal(4).astype(np.float32),
    "var": RNG.uniform(0.5, 1.5, 4).astype(np.float32),
}


def model(then_relu):
    bn_out = "b" if then_relu else "y"
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "scale", "shift", "mean", "var"], [bn_out]),
    ]
    if then_relu:
        nodes.append(helper.make_node("Relu", ["b"], ["y"]))
    graph = helper.make_graph(
        nodes,
        "g",
        [VI("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [VI("y", TensorProto.FLOAT, [1, 4, 8, 8])],
        [numpy_helper.from_array(v, k) for k, v in W.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def run(m, x):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def problem(m):
    x = RNG.standard_normal((1, 3, 8, 8)).astype(np.float32)
    try:
        out = optimize_onnx_model(onnx.ModelProto.FromString(m.SerializeToString()))
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    if "BatchNormalization" in [n.op_type for n in out.graph.node]:
        return "not fused"
    return None if np.allclose(run(out, x), run(m, x), atol=1e-4) else "wrong numbers"


problems = {"y = Relu(BN(Conv(x)))": problem(model(True)), "y = BN(Conv(x))": problem(model(False))}
for k, p in problems.items():
    print(f"{k}: {p or 'fused, same outputs'}")
sys.exit(1 if problems["y = Relu(BN(Conv(x)))"] is None and problems["y = BN(Conv(x))"] else 0)
