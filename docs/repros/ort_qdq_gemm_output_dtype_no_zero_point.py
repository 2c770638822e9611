"""onnxruntime 1.32.0 at ORT_ENABLE_EXTENDED / ORT_ENABLE_ALL refuses a valid opset-21 model:
y = DQ(Q(Gemm(DQ(Q(x, sx, output_dtype=INT8), sx, z), DQ(wq, sw, z)), sy, output_dtype=INT8), sy, z), both
QuantizeLinear nodes giving their type by ``output_dtype`` with no zero point (Operators.md QuantizeLinear-21: "If neither
output_dtype nor y_zero_point are supplied, output data type is uint8"; with output_dtype = INT8 and no zero point
the output is int8 and the zero point 0). The QDQ Gemm fusion into com.microsoft.QGemm passes the QuantizeLinear's
inputs on (no y_zero_point) and not its output_dtype, so the fused node's output is uint8 and session creation
fails: "Type (tensor(int8)) of output arg (yq) of node () does not match expected type (tensor(uint8))". The same
model with explicit int8 zero points 0 (the common spelling) is fused and runs. (With only one of the two
QuantizeLinear nodes spelled so, 1.32.0 does not fuse the Gemm at all.)
Exit 1 while the bug is present (either spelling refused or wrong at any level), 0 once fixed."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(zero_point: bool) -> onnx.ModelProto:
    def quantize(x: str, s: str, y: str) -> onnx.NodeProto:
        if zero_point:
            return helper.make_node("QuantizeLinear", [x, s, "z"], [y])
        return helper.make_node("QuantizeLinear", [x, s], [y], output_dtype=TensorProto.INT8)

    nodes = [
        quantize("x", "sx", "xq"),
        helper.make_node("DequantizeLinear", ["xq", "sx", "z"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "sw", "z"], ["wd"]),
        helper.make_node("Gemm", ["xd", "wd"], ["m"]),
        quantize("m", "sy", "yq"),
        helper.make_node("DequantizeLinear", ["yq", "sy", "z"], ["y"]),
    ]
    inits = [
        numpy_helper.from_array(np.array(0.02, np.float32), "sx"),
        numpy_helper.from_array(np.array(0.05, np.float32), "sy"),
        numpy_helper.from_array(np.array(0.01, np.float32), "sw"),
        numpy_helper.from_array(np.array(0, np.int8), "z"),
        numpy_helper.from_array((np.arange(32).reshape(8, 4) % 11 - 5).astype(np.int8), "wq"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
        inits,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    onnx.checker.check_model(m, full_check=True)
    return m


x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
bad = False
reference = None
for zero_point in (True, False):
    for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_BASIC", "ORT_ENABLE_EXTENDED", "ORT_ENABLE_ALL"):
        so = ort.SessionOptions()
        so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
        so.log_severity_level = 4
        name = f"{'zero point int8 0' if zero_point else 'output_dtype=INT8, no zero point'} at {level}"
        try:
            sess = ort.InferenceSession(model(zero_point).SerializeToString(), so, providers=["CPUExecutionProvider"])
            y = sess.run(None, {"x": x})[0]
        except Exception as exc:  # noqa: BLE001 - the refusal is the finding
            print(f"{name}: refused: {str(exc).strip()[-140:]}")
            bad = True
            continue
        reference = y if reference is None else reference
        same = np.allclose(y, reference, atol=0.051)  # one output quantum
        print(f"{name}: runs, {'same as' if same else 'DIFFERS from'} the unoptimized run")
        bad |= not same
print("onnxruntime", ort.__version__, "->", "BUG" if bad else "ok")
sys.exit(1 if bad else 0)
