"""onnxruntime running LayerNormalization-17 whose Scale and B have shape [1]: the spec lets them broadcast
unidirectionally to X (Operators.md LayerNormalization-17: "tensors `Scale` and `B` should be unidirectional
broadcastable to tensor `X`"), so `y = (x - mean) / sqrt(var + eps) * 1.5 + 0.25` over the last axis. No passcheck.
Exits 1 while the kernel refuses the model or computes otherwise (float32 or float16), 0 once it runs right."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

print("onnxruntime", ort.__version__)
bad = False
for elem, dtype in ((TensorProto.FLOAT, np.float32), (TensorProto.FLOAT16, np.float16)):
    graph = helper.make_graph(
        [helper.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1)],
        "g",
        [helper.make_tensor_value_info("x", elem, [2, 3, 8])],
        [helper.make_tensor_value_info("y", elem, [2, 3, 8])],
        [numpy_helper.from_array(np.array([1.5], dtype), "g"), numpy_helper.from_array(np.array([0.25], dtype), "b")],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    x = np.random.default_rng(0).standard_normal((2, 3, 8)).astype(dtype)
    xf = x.astype(np.float32)
    want = (xf - xf.mean(-1, keepdims=True)) / np.sqrt(xf.var(-1, keepdims=True) + 1e-5) * 1.5 + 0.25
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.log_severity_level = 4
    try:
        session = ort.InferenceSession(m.SerializeToString(), options, providers=["CPUExecutionProvider"])
        err = float(np.abs(session.run(None, {"x": x})[0].astype(np.float32) - want).max())
        ok = err < (2e-3 if dtype == np.float16 else 1e-5)
        print(dtype.__name__, "max error", err)
    except Exception as e:  # noqa: BLE001 - the refusal is the finding
        ok = False
        print(dtype.__name__, "refused:", str(e).splitlines()[0][-200:])
    bad |= not ok
if bad:
    print("BUG: LayerNormalization with a [1] Scale / B is refused")
    raise SystemExit(1)
print("ok")
