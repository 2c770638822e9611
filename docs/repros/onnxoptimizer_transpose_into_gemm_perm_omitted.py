"""onnxoptimizer 0.4.2, pass fuse_transpose_into_gemm (also in the default optimize()): a Transpose whose perm is
omitted (its default reverses the axes, Operators.md Transpose) feeding Gemm's B makes the pass abort with
"required undefined attribute 'perm'"; the same model with perm=[1, 0] written is fused. Exit 1 while the bug is
present."""

import sys

import numpy as np
import onnx
import onnxoptimizer
from onnx import TensorProto, helper, numpy_helper

print("onnx", onnx.__version__, "onnxoptimizer", onnxoptimizer.__version__)


def model(perm):
    g = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(4, 3), "g")
    nodes = [
        helper.make_node("Transpose", ["g"], ["gt"], **({"perm": perm} if perm else {})),
        helper.make_node("Gemm", ["a", "gt"], ["c"], transB=1),
        helper.make_node("Relu", ["c"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        initializer=[g],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    onnx.checker.check_model(m, full_check=True)  # both spellings are valid
    return m


written = onnxoptimizer.optimize(model([1, 0]), ["fuse_transpose_into_gemm"])
print("perm=[1, 0] written:", [n.op_type for n in written.graph.node])
failed = False
for passes in (["fuse_transpose_into_gemm"], None):
    try:
        out = onnxoptimizer.optimize(model(None), passes)
        print("perm omitted,", passes or "default passes", ":", [n.op_type for n in out.graph.node])
    except Exception as exc:  # noqa: BLE001 - the pass's abort surfaces as RuntimeError
        print("BUG: perm omitted,", passes or "default passes", ":", str(exc).strip()[-80:])
        failed = True
sys.exit(1 if failed else 0)
