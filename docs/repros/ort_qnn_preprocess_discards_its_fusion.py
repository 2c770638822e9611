"""onnxruntime's QNN pre-processing (`qnn_preprocess_model(..., fuse_layernorm=True)`) returns False and writes no
model for the decomposed LayerNorm torch exports before opset 17 (ReduceMean over axes=[-1], `Pow(d, 2)`), so the
caller keeps the decomposed chain, while the same computation spelled `Mul(d, d)` is written fused into
`LayerNormalization`. Its first step (`save_and_reload_optimize_model`: an onnxruntime session at the basic level)
already fused the Pow spelling (onnxruntime's LayerNormFusion); its own FusionLayerNormalization then has nothing
left to fuse, and `modified` counts only its own steps, so the fused model is discarded.

Model (opset 17, every node named as an exporter names them): x: float[2, 4, 8]; m = ReduceMean<axes=[-1]>(x);
d = x - m; v = ReduceMean<axes=[-1]>(d ^ 2); y = d / Sqrt(v + 1e-5) * g + b, g and b float[8]. Exits 1 while the
model the caller ends with (the written one, or the given one when it returns False) has no LayerNormalization for
the Pow spelling although it has one for the Mul(d, d) spelling; 0 when both are fused (or neither)."""

import os
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization.execution_providers.qnn.preprocess import qnn_preprocess_model


def model(square: str) -> onnx.ModelProto:
    sq = (
        helper.make_node("Pow", ["d", "two"], ["p"], name="pow")
        if square == "pow"
        else helper.make_node("Mul", ["d", "d"], ["p"], name="square")
    )
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["m"], axes=[-1], name="mean"),
        helper.make_node("Sub", ["x", "m"], ["d"], name="sub"),
        sq,
        helper.make_node("ReduceMean", ["p"], ["v"], axes=[-1], name="var"),
        helper.make_node("Add", ["v", "eps"], ["ve"], name="add_eps"),
        helper.make_node("Sqrt", ["ve"], ["s"], name="sqrt"),
        helper.make_node("Div", ["d", "s"], ["n"], name="div"),
        helper.make_node("Mul", ["n", "g"], ["t"], name="scale"),
        helper.make_node("Add", ["t", "b"], ["y"], name="shift"),
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


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    fused = {}
    for square in ("pow", "mul"):
        m = model(square)
        onnx.checker.check_model(m, full_check=True)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "preprocessed.onnx")
            given = onnx.ModelProto.FromString(m.SerializeToString())  # 1.18 edits the ModelProto it is given
            written = qnn_preprocess_model(given, out, fuse_layernorm=True)
            kept = onnx.load(out) if written else m  # its docs: the output is created only when it returns True
        ops = [n.op_type for n in kept.graph.node]
        fused[square] = "LayerNormalization" in ops
        print(f"{square}: returned {written}, the caller's model: {ops}")
    raise SystemExit(1 if fused["mul"] and not fused["pow"] else 0)
