"""onnxruntime 1.32.0 at ORT_ENABLE_EXTENDED / ORT_ENABLE_ALL refuses a valid opset-13 model:
c = Where(Greater(x, 0), DequantizeLinear(QuantizeLinear(x, sx, zx), sx, zx), 0.5), then a per-tensor
QuantizeLinear / DequantizeLinear pair, where the first pair's scale and zero point are written per axis
(Operators.md QuantizeLinear-13 / DequantizeLinear-13: a 1-D scale of the axis's length, here 8 equal entries,
axis 1 by default). The QDQ Where selector fuses it into com.microsoft.QLinearWhere without checking that the
scales are scalars, and the kernel then refuses it when the session is created ("QlinearBuildLookupTable : input
X_scale must be a scalar or 1D tensor of size 1"). The per-tensor spelling (the same values) is fused and runs;
a selector that declines a non-scalar scale (as the other QDQ selectors do) would leave the per-axis one unfused.
Exit 1 while the bug is present (either spelling refused or wrong at any level), 0 once fixed."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(per_axis: bool) -> onnx.ModelProto:
    sx = np.full((8,), 0.02, np.float32) if per_axis else np.array(0.02, np.float32)
    zx = np.full((8,), 128, np.uint8) if per_axis else np.array(128, np.uint8)
    inits = [
        numpy_helper.from_array(sx, "sx"),
        numpy_helper.from_array(zx, "zx"),
        numpy_helper.from_array(np.array(0.05, np.float32), "sy"),
        numpy_helper.from_array(np.array(128, np.uint8), "zy"),
        numpy_helper.from_array(np.array(0, np.float32), "zero"),
        numpy_helper.from_array(np.array(0.5, np.float32), "fill"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
        helper.make_node("Greater", ["x", "zero"], ["g"]),
        helper.make_node("Where", ["g", "xd", "fill"], ["c"]),
        helper.make_node("QuantizeLinear", ["c", "sy", "zy"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])],
        inits,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
bad = False
reference = None
for per_axis in (False, True):
    for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_BASIC", "ORT_ENABLE_EXTENDED", "ORT_ENABLE_ALL"):
        so = ort.SessionOptions()
        so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
        so.log_severity_level = 4
        name = f"{'per-axis (8 equal entries)' if per_axis else 'per-tensor'} scale at {level}"
        try:
            sess = ort.InferenceSession(model(per_axis).SerializeToString(), so, providers=["CPUExecutionProvider"])
            y = sess.run(None, {"x": x})[0]
        except Exception as exc:  # noqa: BLE001 - the refusal is the finding
            print(f"{name}: refused: {str(exc).strip()[-120:]}")
            bad = True
            continue
        reference = y if reference is None else reference
        same = np.allclose(y, reference, atol=0.051)  # one output quantum
        print(f"{name}: runs, {'same as' if same else 'DIFFERS from'} the unoptimized run")
        bad |= not same
print("onnxruntime", ort.__version__, "->", "BUG" if bad else "ok")
sys.exit(1 if bad else 0)
