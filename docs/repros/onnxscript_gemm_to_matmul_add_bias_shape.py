"""onnxscript 0.7.2's `gemm_to_matmul_add_rule` (`rewriter/rules/common/_gemm_to_matmul_add.py`, opt-in; also run by
`optimize_for_ort`) on `y = Reshape(Gemm(Reshape(x, [6, 4]), B, C, alpha=1, beta=1), [6, 1, 5])`, `x: float[6, 1, 4]`,
with a per-row bias `C: float[6, 5]` (Gemm-13: C need only be unidirectionally broadcastable to (M, N)). The rule's
check (`check_if_not_need_reshape`, `_broadcast_to_matmul.py`) compares the final shape with MatMul(x, B)'s and never
reads C's shape, so the rewrite `Add(MatMul(x, B), C)` broadcasts C against `[6, 1, 5]` multidirectionally:
`[6, 6, 5]`, not `[6, 1, 5]`. With `x: float[2, 3, 4]` (final shape `[2, 3, 5]`) the rewritten Add is invalid
("Incompatible dimensions"). Exit 1 while the defect is present."""

import sys

import numpy as np
import onnx
import onnx_ir as ir
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.rules.common import gemm_to_matmul_add_rule


def build(x_shape, y_shape):
    inits = {
        "sa": np.array([6, 4], np.int64),
        "b": np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5),
        "c": np.arange(30, dtype=np.float32).reshape(6, 5),
        "sc": np.array(y_shape, np.int64),
    }
    nodes = [
        helper.make_node("Reshape", ["x", "sa"], ["r"]),
        helper.make_node("Gemm", ["r", "b", "c"], ["g"], alpha=1.0, beta=1.0),
        helper.make_node("Reshape", ["g", "sc"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, x_shape)],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, y_shape)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model, full_check=True)
    return model


def run(m, x):
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


bad = False
for x_shape, y_shape in (([6, 1, 4], [6, 1, 5]), ([2, 3, 4], [2, 3, 5])):
    model = build(x_shape, y_shape)
    out = ir.to_proto(rewrite(ir.from_proto(model), [gemm_to_matmul_add_rule]))
    x = np.random.default_rng(0).standard_normal(x_shape).astype(np.float32)
    expected = run(model, x)
    try:
        got = run(out, x)
        same = got.shape == expected.shape and np.allclose(got, expected, atol=1e-5)
        what = f"shape {got.shape}"
    except Exception as e:  # the rewritten Add refused
        same, what = False, f"refused: {str(e).splitlines()[0][:120]}"
    print(x_shape, [n.op_type for n in out.graph.node], "expected", expected.shape, "rewritten", what)
    bad |= not same
if bad:
    print("BUG: the rewrite reads C with Add's multidirectional broadcast, not Gemm's (M, N) one")
    sys.exit(1)
print("ok")
