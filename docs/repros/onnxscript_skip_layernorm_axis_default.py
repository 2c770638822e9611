"""onnxscript 0.7.2 optimize_for_ort (SkipLayerNormFusion, rewriter/ort_fusions/skip_normalization.py) fuses
Add + LayerNormalization into com.microsoft SkipLayerNormalization only when LayerNormalization writes axis = -1:
its pattern names ``axis=-1`` and the matcher fails a node that omits the attribute ("Attribute axis not found")
or writes the same axis positively (axis = 2 on rank 3). Operators.md LayerNormalization-17: axis defaults to -1,
and a negative axis counts from the back, so all three nodes compute the same thing. Exit 1 while the bug is
present (a missed optimization: the outputs stay right)."""

import sys

import numpy as np
import onnx
import onnxscript
from onnx import helper, numpy_helper
from onnxscript.rewriter.ort_fusions import optimize_for_ort

try:
    import onnx_ir as ir
except ImportError:
    import onnxscript.ir as ir

print("onnx", onnx.__version__, "onnxscript", onnxscript.__version__)


def model(attrs):
    nodes = [
        helper.make_node("Add", ["x", "skip"], ["a"]),
        helper.make_node("LayerNormalization", ["a", "g", "b"], ["y"], epsilon=1e-5, **attrs),
    ]
    inits = [
        numpy_helper.from_array(np.ones(8, np.float32), "g"),
        numpy_helper.from_array(np.zeros(8, np.float32), "b"),
    ]
    vi = [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, ["N", 4, 8]) for n in ("x", "skip", "y")]
    m = helper.make_model(
        helper.make_graph(nodes, "g", vi[:2], vi[2:], inits), opset_imports=[helper.make_opsetid("", 17)], ir_version=8
    )
    onnx.checker.check_model(m, full_check=True)
    return m


fused = {}
for name, attrs in (("axis = -1", {"axis": -1}), ("axis omitted", {}), ("axis = 2", {"axis": 2})):
    result = optimize_for_ort(ir.serde.deserialize_model(model(attrs)))
    out = result[0] if isinstance(result, tuple) else result
    fused[name] = [n.op_type for n in out.graph]
    print(f"{name:13s} ->", fused[name])
if any(v != fused["axis = -1"] for v in fused.values()):
    print("BUG: the same LayerNormalization is fused only when axis = -1 is written")
    sys.exit(1)
print("ok")
