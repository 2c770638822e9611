"""onnxruntime 1.32.0's transformer optimizer (onnxruntime/transformers/fusion_constant_fold.py, FusionConstantFold,
run by BertOnnxModel.optimize for every model type built on it) computes wrong results:

- fuse_1 folds `Transpose(w)` of a 2-D initializer read by a Gemm or MatMul into `w.T` without reading the
  Transpose's `perm` (an identity `perm=[0, 1]` is folded as a transpose), and sets the Gemm's `transA`/`transB` to 0
  (a `transB=1` Gemm then multiplies by the wrong matrix: "GEMM: Dimension mismatch", or wrong values when square);
- fuse_2 drops `Transpose(Transpose(x, p), p)` whenever both perms are equal, which is the identity only when `p` is
  its own inverse (`p = [1, 2, 0]` twice is `[2, 0, 1]`), and reads `attribute[0]` of both nodes, so two Transposes
  with the default perm (the attribute omitted: reverse the axes, Operators.md Transpose) raise IndexError.

Each input is valid and onnxruntime runs it. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

T = onnx.TensorProto.FLOAT
rng = np.random.default_rng(0)
w = numpy_helper.from_array(rng.standard_normal((4, 4)).astype(np.float32), "w")


def model(nodes, x_shape, y_shape, inits=()):
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", T, x_shape)],
        [helper.make_tensor_value_info("y", T, y_shape)],
        list(inits),
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


CASES = {
    "Gemm(x, Transpose(w), transB=1)": model(
        [helper.make_node("Transpose", ["w"], ["wt"]), helper.make_node("Gemm", ["x", "wt"], ["y"], transB=1)],
        [2, 4],
        [2, 4],
        [w],
    ),
    "MatMul(x, Transpose(w, perm=[0, 1]))": model(
        [
            helper.make_node("Transpose", ["w"], ["wt"], perm=[0, 1]),
            helper.make_node("MatMul", ["x", "wt"], ["y"]),
        ],
        [2, 4],
        [2, 4],
        [w],
    ),
    "Relu(Transpose(Transpose(x, [1, 2, 0]), [1, 2, 0]))": model(
        [
            helper.make_node("Transpose", ["x"], ["a"], perm=[1, 2, 0]),
            helper.make_node("Transpose", ["a"], ["b"], perm=[1, 2, 0]),
            helper.make_node("Relu", ["b"], ["y"]),
        ],
        [2, 3, 4],
        [4, 2, 3],
    ),
    "Relu(Transpose(Transpose(x)))": model(
        [
            helper.make_node("Transpose", ["x"], ["a"]),
            helper.make_node("Transpose", ["a"], ["b"]),
            helper.make_node("Relu", ["b"], ["y"]),
        ],
        [2, 3, 4],
        [2, 3, 4],
    ),
}


def run(m, x):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


bad = []
for name, m in CASES.items():
    onnx.checker.check_model(m, full_check=True)
    x = rng.standard_normal([d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]).astype(np.float32)
    expected = run(m, x)
    try:
        got = run(optimize_model(m, "bert", num_heads=0, hidden_size=0, opt_level=0).model, x)
    except Exception as exc:  # noqa: BLE001
        bad.append(f"{name}: {type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
        continue
    if got.shape != expected.shape or not np.allclose(got, expected, rtol=1e-5, atol=1e-5):
        bad.append(f"{name}: values differ (shape {got.shape} vs {expected.shape})")
    else:
        print(name, "ok")
if bad:
    print("BUG:", *bad, sep="\n  ")
    sys.exit(1)
print("ok")
