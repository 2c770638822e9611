"""onnxruntime SkipLayerNormFusion (ORT_ENABLE_EXTENDED and up) ignores LayerNormalization's axis.

y = LayerNormalization(Add(x, skip), g, b, axis=a), x, skip: float[2, 4, 8], g, b: float[8]
(LayerNormalization-17 normalizes over x.shape[axis:]; Scale and B broadcast unidirectionally to
that shape, Operators.md). SkipLayerNormFusion (core/optimizer/skip_layer_norm_fusion.cc) reads only
`epsilon` from the LayerNormalization node and writes com.microsoft.SkipLayerNormalization, which
normalizes over the last axis. axis=-1 and 2 are correct; axis=1 (and -2) give other values.
Exits 1 while the optimized session disagrees with the unoptimized one.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(axis):
    inits = [
        numpy_helper.from_array(np.linspace(0.5, 1.5, 8, dtype=np.float32), "g"),
        numpy_helper.from_array(np.linspace(-0.5, 0.5, 8, dtype=np.float32), "b"),
    ]
    nodes = [
        helper.make_node("Add", ["x", "skip"], ["a"]),
        helper.make_node("LayerNormalization", ["a", "g", "b"], ["y"], axis=axis, epsilon=1e-5),
    ]
    t = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT, ["N", 4, 8])  # noqa: E731
    g = helper.make_graph(nodes, "g", [t("x"), t("skip")], [t("y")], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


rng = np.random.default_rng(0)
feeds = {
    "x": rng.standard_normal((2, 4, 8)).astype(np.float32),
    "skip": rng.standard_normal((2, 4, 8)).astype(np.float32),
}


def run(m, level, path=None):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    if path:
        so.optimized_model_filepath = path
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


bad = False
for axis in (-1, 1, -2):
    m = model(axis)
    onnx.checker.check_model(m, full_check=True)
    ref = run(m, ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    got = run(m, ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED, "/tmp/sln_axis_opt.onnx")
    ops = [n.op_type for n in onnx.load("/tmp/sln_axis_opt.onnx").graph.node]
    err = float(np.abs(got - ref).max())
    print(
        f"axis {axis:2}: optimized ops {ops}, max abs err vs ORT_DISABLE_ALL {err:.3g} -> {'ok' if err < 1e-4 else 'WRONG'}"
    )
    bad |= err >= 1e-4
sys.exit(1 if bad else 0)
