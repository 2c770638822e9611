"""onnxscript 0.7.2 optimize_for_ort (its SDPA -> MultiHeadAttention fusions, rewriter/ort_fusions/).

Scaled dot-product attention computed in double (every op takes double at opset 18):
c = MatMul(Softmax(Add(Div(MatMul(q, Transpose(k)), scale), mask)), v), q, k, v, mask float cast to double.
The fusions write com.microsoft::MultiHeadAttention with the double inputs; that op's type constraint T
is float or float16 (onnxruntime contrib op schema), so onnxruntime refuses the optimized model.
Expected: the optimized model runs and matches (or the double pattern is left unfused).
Exits 1 while onnxruntime cannot run the optimized model or its output differs.
"""

import sys

import numpy as np
import onnx
import onnx_ir as ir
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxscript.rewriter.ort_fusions import optimize_for_ort

D = TensorProto.DOUBLE
nodes = [
    helper.make_node("Cast", ["kr"], ["kr64"], to=D),
    helper.make_node("Cast", ["qt"], ["qt64"], to=D),
    helper.make_node("Cast", ["mask"], ["mask64"], to=D),
    helper.make_node("Cast", ["vt"], ["vt64"], to=D),
    helper.make_node("Transpose", ["kr64"], ["kt"], perm=[0, 2, 3, 1]),
    helper.make_node("MatMul", ["qt64", "kt"], ["s"]),
    helper.make_node("Div", ["s", "scale"], ["d"]),
    helper.make_node("Add", ["d", "mask64"], ["a"]),
    helper.make_node("Softmax", ["a"], ["w"], axis=-1),
    helper.make_node("MatMul", ["w", "vt64"], ["c64"]),
    helper.make_node("Cast", ["c64"], ["c"], to=TensorProto.FLOAT),
]
F = TensorProto.FLOAT
g = helper.make_graph(
    nodes,
    "g",
    [
        helper.make_tensor_value_info("kr", F, [1, 4, 2, 8]),
        helper.make_tensor_value_info("qt", F, [1, 2, 4, 8]),
        helper.make_tensor_value_info("mask", F, [1, 1, 4, 4]),
        helper.make_tensor_value_info("vt", F, [1, 2, 4, 8]),
    ],
    [helper.make_tensor_value_info("c", F, [1, 2, 4, 8])],
    [numpy_helper.from_array(np.array(np.sqrt(8.0), np.float64), "scale")],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(m, full_check=True)
rng = np.random.default_rng(0)
feeds = {
    "kr": rng.standard_normal((1, 4, 2, 8), np.float32),
    "qt": rng.standard_normal((1, 2, 4, 8), np.float32),
    "mask": np.zeros((1, 1, 4, 4), np.float32),
    "vt": rng.standard_normal((1, 2, 4, 8), np.float32),
}
run = lambda model: ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]  # noqa: E731
want = run(m)
res = optimize_for_ort(ir.from_proto(m))
out = ir.to_proto(res[0] if isinstance(res, tuple) else res)
print("optimized ops:", [(n.domain or "") + "::" + n.op_type for n in out.graph.node])
try:
    got = run(out)
except Exception as e:  # noqa: BLE001 - onnxruntime refusing the output is the finding
    print(f"onnxruntime cannot run the optimized model: {type(e).__name__}: {str(e)[:240]}")
    sys.exit(1)
print("max abs diff", float(np.abs(got - want).max()))
sys.exit(0 if np.allclose(got, want, rtol=1e-4, atol=1e-5) else 1)
