"""onnxruntime's QNN pre-processing (`qnn_preprocess_model(..., fuse_layernorm=True)`, whose LayerNorm step is
`quantization/fusions/fusion_layernorm.py`'s FusionLayerNormalization) fuses a decomposed normalization into
`LayerNormalization` without reading ReduceMean's `axes`: the node it writes has the default `axis=-1`, so a chain
that normalizes over axis 1, or over the last two axes, becomes one that normalizes over the last axis only.

Model (opset 17): x: float[2, 4, 8]; m = ReduceMean<axes>(x); d = x - m; v = ReduceMean<axes>(d ^ 2);
y = d / Sqrt(v + 1e-5) * g + b, g and b float[8] (rank 1, as the fusion requires). Operators.md
LayerNormalization-17 normalizes over the axes [axis, rank); with axes=[-1] the fused model is the same computation
(the tool leaves it as it is: onnxruntime's own LayerNormFusion, which checks the axes, fused it in its first step).
Exits 1 while the model written for axes=[1] or [-2, -1] differs from the given model's run, 0 when fixed (the
chain left unfused, or fused with the right axis)."""

import os
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization.execution_providers.qnn.preprocess import qnn_preprocess_model


def model(axes) -> onnx.ModelProto:
    def mean(i, o):
        return helper.make_node("ReduceMean", [i], [o], axes=axes)

    nodes = [
        mean("x", "m"),
        helper.make_node("Sub", ["x", "m"], ["d"]),
        helper.make_node("Pow", ["d", "two"], ["p"]),
        mean("p", "v"),
        helper.make_node("Add", ["v", "eps"], ["ve"]),
        helper.make_node("Sqrt", ["ve"], ["s"]),
        helper.make_node("Div", ["d", "s"], ["n"]),
        helper.make_node("Mul", ["n", "g"], ["t"]),
        helper.make_node("Add", ["t", "b"], ["y"]),
    ]
    inits = [
        numpy_helper.from_array(np.linspace(0.5, 1.5, 8).astype(np.float32), "g"),
        numpy_helper.from_array(np.linspace(-0.5, 0.5, 8).astype(np.float32), "b"),
        numpy_helper.from_array(np.array(2.0, np.float32), "two"),
        numpy_helper.from_array(np.array(1e-5, np.float32), "eps"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4, 8])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def run(m, x):
    """``m`` run unoptimized (onnxruntime's own fusions left out of the comparison)."""
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    x = np.random.default_rng(0).standard_normal((2, 4, 8)).astype(np.float32)
    bad = False
    for axes in ([-1], [1], [-2, -1]):
        m = model(axes)
        onnx.checker.check_model(m, full_check=True)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "preprocessed.onnx")
            given = onnx.ModelProto.FromString(m.SerializeToString())  # 1.18 edits the ModelProto it is given
            written = qnn_preprocess_model(given, out, fuse_layernorm=True)
            got = onnx.load(out) if written else m  # it writes nothing when it changed nothing (returns False)
        ops = [n.op_type for n in got.graph.node]
        err = float(np.abs(run(got, x) - run(m, x)).max())
        print(f"axes={axes}: written={written}, ops={ops}, max |error| vs the given model {err:.3g}")
        bad |= err > 1e-4
    raise SystemExit(1 if bad else 0)
