"""onnxscript 0.7.2 onnx_fusions.fuse() (RmsNormFusion, rewriter/rules/fusion/_rms_normalization.py) fuses
x * Reciprocal(Sqrt(ReduceMean(x^2, [-1]) + eps)) * scale into RMSNormalization-23 without comparing the rank of
`scale` or `eps` with x's. A scale of shape [1, 1, 8] (or an epsilon of shape [1, 1, 1]) for x: [2, 8] is valid
under Mul / Add (multidirectional broadcasting: the result is [1, 2, 8]), but RMSNormalization's output has x's
shape [2, 8]: the fused model is rejected by the checker (the output is declared [1, 2, 8]) or, undeclared, gives a
result of another rank. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

try:
    import onnx_ir as ir
except ImportError:  # onnxscript releases bundling their IR
    from onnxscript import ir
from onnxscript.rewriter.onnx_fusions import fuse


def model(scale_shape, eps_shape):
    nodes = [
        helper.make_node("Pow", ["x", "two"], ["sq"]),
        helper.make_node("ReduceMean", ["sq", "axes"], ["ms"], keepdims=1, noop_with_empty_axes=0),
        helper.make_node("Add", ["ms", "eps"], ["mse"]),
        helper.make_node("Sqrt", ["mse"], ["r"]),
        helper.make_node("Reciprocal", ["r"], ["rr"]),
        helper.make_node("Mul", ["x", "rr"], ["n"]),
        helper.make_node("Mul", ["n", "scale"], ["y"]),
    ]
    inits = [
        numpy_helper.from_array(np.array(2.0, np.float32), "two"),
        numpy_helper.from_array(np.array([-1], np.int64), "axes"),
        numpy_helper.from_array(np.full(eps_shape, 1e-5, np.float32), "eps"),
        numpy_helper.from_array(np.linspace(0.5, 1.5, 8, dtype=np.float32).reshape(scale_shape), "scale"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 8])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)], ir_version=10)


bug = False
for scale_shape, eps_shape in (((1, 1, 8), ()), ((8,), (1, 1, 1))):
    m = model(scale_shape, eps_shape)
    onnx.checker.check_model(m, full_check=True)  # the input is valid: y is [1, 2, 8]
    im = ir.serde.deserialize_model(m)
    counts = fuse(im)
    out = ir.serde.serialize_model(im)
    print(f"scale {scale_shape}, eps {eps_shape}:", counts, [n.op_type for n in out.graph.node])
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as exc:  # noqa: BLE001 - the checker's error is the finding
        print("  BUG:", str(exc).strip().splitlines()[0][:200])
        bug = True
sys.exit(1 if bug else 0)
