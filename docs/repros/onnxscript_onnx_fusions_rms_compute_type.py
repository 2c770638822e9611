"""onnxscript 0.7.2 onnx_fusions.fuse() (RmsNormFusion, rewriter/rules/fusion/_rms_normalization.py) matches an RMS
normalization whose input is Cast to a compute type (`Cast(x, to=DOUBLE)`) and whose result stays in that type (no
Cast back before the scaling Mul, the scale a double), and writes RMSNormalization(x, scale, stash_type=DOUBLE) on
the float `x` before the Cast. RMSNormalization-23 casts the normalized value back to X's type before the scale
(its function body; Operators.md), so the fused node does not compute the double result: the checker rejects it
("Y has inconsistent type"). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

try:
    import onnx_ir as ir
except ImportError:  # onnxscript releases bundling their IR
    from onnxscript import ir
from onnxscript.rewriter.onnx_fusions import fuse

nodes = [
    helper.make_node("Cast", ["x"], ["xd"], to=TensorProto.DOUBLE),
    helper.make_node("Pow", ["xd", "two"], ["sq"]),
    helper.make_node("ReduceMean", ["sq", "axes"], ["ms"], keepdims=1, noop_with_empty_axes=0),
    helper.make_node("Add", ["ms", "eps"], ["mse"]),
    helper.make_node("Sqrt", ["mse"], ["r"]),
    helper.make_node("Reciprocal", ["r"], ["rr"]),
    helper.make_node("Mul", ["xd", "rr"], ["n"]),
    helper.make_node("Mul", ["n", "scale"], ["yd"]),
    helper.make_node("Cast", ["yd"], ["y"], to=TensorProto.FLOAT),
]
inits = [
    numpy_helper.from_array(np.array(2.0, np.float64), "two"),
    numpy_helper.from_array(np.array([-1], np.int64), "axes"),
    numpy_helper.from_array(np.array(1e-5, np.float64), "eps"),
    numpy_helper.from_array(np.linspace(0.5, 1.5, 8), "scale"),
]
graph = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])],
    inits,
)
m = onnx.shape_inference.infer_shapes(
    helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)], ir_version=10)
)
onnx.checker.check_model(m, full_check=True)  # the input is valid
im = ir.serde.deserialize_model(m)
counts = fuse(im)
out = ir.serde.serialize_model(im)
print(counts, [(n.op_type, [(a.name, a.i) for a in n.attribute if a.name == "stash_type"]) for n in out.graph.node])
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001 - the checker's error is the finding
    print("BUG:", str(exc).strip().splitlines()[0][:200])
    sys.exit(1)
print("ok")
