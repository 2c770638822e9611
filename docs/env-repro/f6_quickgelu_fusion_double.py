"""onnxruntime's QuickGeluFusion on a double-precision graph: `y = x * Sigmoid(1.702 * x)` in tensor(double) is valid
ONNX (Operators.md: Mul and Sigmoid-13 take tensor(double)), and runs with optimizations off. From ORT_ENABLE_EXTENDED
the fusion writes com.microsoft::QuickGelu, whose CPU kernel is registered for tensor(float) only, so session
creation fails ("Failed to find kernel for com.microsoft.QuickGelu(1)"). No passcheck. Exits 1 while a level refuses
the model or computes otherwise, 0 once every level runs it right."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

print("onnxruntime", ort.__version__)
graph = helper.make_graph(
    [
        helper.make_node("Mul", ["x", "alpha"], ["scaled"]),
        helper.make_node("Sigmoid", ["scaled"], ["gate"]),
        helper.make_node("Mul", ["x", "gate"], ["y"]),
    ],
    "quickgelu_f64",
    [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [2, 8])],
    [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [2, 8])],
    [numpy_helper.from_array(np.array(1.702, np.float64), "alpha")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
x = np.random.default_rng(0).standard_normal((2, 8))
want = x / (1.0 + np.exp(-1.702 * x))
bad = False
for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_BASIC", "ORT_ENABLE_EXTENDED", "ORT_ENABLE_ALL"):
    options = ort.SessionOptions()
    options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    options.log_severity_level = 4
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        err = float(np.abs(session.run(None, {"x": x})[0] - want).max())
        ok = err < 1e-12
        print(level, "max error", err)
    except Exception as e:  # noqa: BLE001 - the refusal is the finding
        ok = False
        print(level, "refused:", str(e).splitlines()[0][:200])
    bad |= not ok
if bad:
    print("BUG: an optimization level refuses (or miscomputes) a double-precision QuickGelu pattern")
    raise SystemExit(1)
print("ok")
