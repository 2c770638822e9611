"""onnxruntime with session.enable_quant_qdq_cleanup=1 (ORT_ENABLE_EXTENDED) drops a Relu the model states.

Model (opset 17): y = DequantizeLinear(QuantizeLinear(Relu(x), s, z), s, z), z = uint8 0. ReluQuantFusion (Level2
rule) removes the Relu because the QuantizeLinear that follows saturates at its zero point 0, which clamps below 0
as the Relu did. QDQFinalCleanupTransformer, with the config key set, then removes that QuantizeLinear ->
DequantizeLinear pair (qdq_final_cleanup.h: the pair's removal costs the round trip's precision), so nothing clamps
any more: negative inputs come out negative. The key's documented effect is the loss of the pair's rounding
(at most s / 2 = 0.05 here), not of the Relu. Exits 1 while the bug is there, 0 when fixed."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model() -> onnx.ModelProto:
    graph = helper.make_graph(
        [
            helper.make_node("Relu", ["x"], ["r"]),
            helper.make_node("QuantizeLinear", ["r", "s", "z"], ["q"]),
            helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8])],
        [numpy_helper.from_array(np.array(0.1, np.float32), "s"), numpy_helper.from_array(np.array(0, np.uint8), "z")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def run(m, level, cleanup, disabled=()):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    if cleanup:
        so.add_session_config_entry("session.enable_quant_qdq_cleanup", "1")
    s = ort.InferenceSession(
        m.SerializeToString(), so, providers=["CPUExecutionProvider"], disabled_optimizers=list(disabled) or None
    )
    return s.run(None, {"x": X})[0]


X = np.linspace(-2, 2, 8).astype(np.float32)

if __name__ == "__main__":
    m = model()
    onnx.checker.check_model(m, full_check=True)
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    L = ort.GraphOptimizationLevel
    ref = run(m, L.ORT_DISABLE_ALL, False)
    got = run(m, L.ORT_ENABLE_EXTENDED, True)
    no_rule = run(m, L.ORT_ENABLE_EXTENDED, True, ["ReluQuantRewrite"])
    print("x                              ", X.tolist())
    print("ORT_DISABLE_ALL                ", ref.tolist())
    print("EXTENDED + cleanup             ", got.tolist())
    print("EXTENDED + cleanup, no ReluQuantRewrite", no_rule.tolist())
    if (ref < 0).any():
        print("premise failed: the unoptimized session gives a negative value")
        sys.exit(2)
    if (got < -0.05).any():  # beyond half a quantization step below the Relu's floor
        print("BUG: the optimized session returns negative values: the Relu is gone")
        sys.exit(1)
    sys.exit(0)
