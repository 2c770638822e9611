"""onnxruntime's MatMulIntegerToFloatFusion (ORT_ENABLE_EXTENDED and up) drops the rank a bias adds.

Model (opset 17): y = Add(Mul(Cast(MatMulInteger(q, w, qz, wz), to=FLOAT), Mul(qs, ws)), bias), q: uint8[N, 8],
w: int8[8, 4], bias a constant float[1, 1, 4]. Add broadcasts multidirectionally (Operators.md Add, Broadcasting.md):
[N, 4] + [1, 1, 4] is [1, N, 4], as the declared output says. MatMulIntegerToFloatFusion
(core/optimizer/matmul_integer_to_float.cc) takes a bias whose leading dims are all 1 (CheckBiasShape) without
comparing its rank with the MatMul's, and folds it into com.microsoft::MatMulIntegerToFloat, whose output has the
MatMul's rank: the session returns [N, 4]. The same check never compares the bias's last dim with B's (its comment
says it should): w: int8[8, 1] with bias float[4] ([N, 1] + [4] is [N, 4]) is fused too, and the session then fails
at run time ("bias tensor's element count must equal B's last dimension"). Exits 1 while either is there, 0 when
fixed."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(cols: int = 4, bias_shape: tuple = (1, 1, 4), out: list | None = None) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    inits = [
        numpy_helper.from_array(rng.integers(-64, 64, (8, cols)).astype(np.int8), "w"),
        numpy_helper.from_array(np.array(0, np.int8), "wz"),
        numpy_helper.from_array(np.array(0.01, np.float32), "ws"),
        numpy_helper.from_array(rng.standard_normal(bias_shape).astype(np.float32), "bias"),
    ]
    graph = helper.make_graph(
        [
            helper.make_node("MatMulInteger", ["q", "w", "qz", "wz"], ["mi"]),
            helper.make_node("Cast", ["mi"], ["f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["qs", "ws"], ["s"]),
            helper.make_node("Mul", ["f", "s"], ["m"]),
            helper.make_node("Add", ["m", "bias"], ["y"]),
        ],
        "g",
        [
            helper.make_tensor_value_info("q", TensorProto.UINT8, ["N", 8]),
            helper.make_tensor_value_info("qz", TensorProto.UINT8, []),
            helper.make_tensor_value_info("qs", TensorProto.FLOAT, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out or [1, "N", 4])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def run(m, level, disabled=()):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    so.log_severity_level = 3
    s = ort.InferenceSession(
        m.SerializeToString(), so, providers=["CPUExecutionProvider"], disabled_optimizers=list(disabled) or None
    )
    return s.run(None, FEEDS)[0]


FEEDS = {
    "q": np.random.default_rng(1).integers(0, 256, (2, 8)).astype(np.uint8),
    "qz": np.array(128, np.uint8),
    "qs": np.array(0.02, np.float32),
}

if __name__ == "__main__":
    m = model()
    onnx.checker.check_model(m, full_check=True)
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    L = ort.GraphOptimizationLevel
    ref = run(m, L.ORT_DISABLE_ALL)
    got = run(m, L.ORT_ENABLE_EXTENDED)
    without = run(m, L.ORT_ENABLE_EXTENDED, ["MatMulIntegerToFloatFusion"])
    print("ORT_DISABLE_ALL                                  ", ref.shape)
    print("ORT_ENABLE_EXTENDED                              ", got.shape)
    print("ORT_ENABLE_EXTENDED without MatMulIntegerToFloatFusion", without.shape)
    if ref.shape != (1, 2, 4):
        print("premise failed: the unoptimized session does not broadcast to [1, N, 4]")
        sys.exit(2)
    bug = got.shape != ref.shape or not np.allclose(got, ref, atol=1e-5)
    if bug:
        print("BUG: the fused session returns", got.shape, "where the model computes", ref.shape)
    m2 = model(cols=1, bias_shape=(4,), out=["N", 4])
    onnx.checker.check_model(m2, full_check=True)
    ref2 = run(m2, L.ORT_DISABLE_ALL)
    print("bias [4] on B [8, 1]: ORT_DISABLE_ALL", ref2.shape)
    try:
        got2 = run(m2, L.ORT_ENABLE_EXTENDED)
        print("bias [4] on B [8, 1]: ORT_ENABLE_EXTENDED", got2.shape)
        bug2 = got2.shape != ref2.shape or not np.allclose(got2, ref2, atol=1e-5)
    except Exception as exc:  # onnxruntime raises its own Fail at run time
        print("bias [4] on B [8, 1]: ORT_ENABLE_EXTENDED fails:", str(exc).splitlines()[0][:200])
        bug2 = True
    if bug2:
        print("BUG: a bias whose last dim is not B's is fused as well")
    sys.exit(1 if bug or bug2 else 0)
