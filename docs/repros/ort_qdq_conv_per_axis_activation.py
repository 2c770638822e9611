"""onnxruntime 1.32.0 at ORT_ENABLE_EXTENDED / ORT_ENABLE_ALL fuses a QDQ Conv whose uint8 activation Q/DQ pair is
per-axis into an ONNX QLinearConv, whose kernel then refuses to run it.

Operators.md QuantizeLinear-13 / DequantizeLinear-13: a 1-D scale and zero point of the axis's length (axis 1, the
channels, by default) is per-axis quantization; here every entry is equal, so the values are those of the
per-tensor spelling. Operators.md QLinearConv: ``x_scale`` / ``x_zero_point`` (and ``y_scale`` / ``y_zero_point``)
are scalars ("per-tensor/layer quantization"); only ``w`` may be per output channel. The QDQ Conv selector
(``ConvNodeGroupSelector::Check``, ``qdq_selectors.cc``) checks the pairs' types, not their scales' shapes, and the
action moves the 1-D activation scale and zero point onto the QLinearConv: at run time "QLinearConv : input zero
point must be a scalar or 1D tensor of size 1" (with the output pair per-axis: "result zero point ...").
Exit 1 while a per-axis spelling fails or differs from ORT_DISABLE_ALL at an optimizing level, 0 once fixed (the
pair left unfused, or the equal entries collapsed)."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

C = 4


def model(per_axis_in: bool, per_axis_out: bool) -> onnx.ModelProto:
    def scale_zero(name: str, value: float, per_axis: bool) -> list[onnx.TensorProto]:
        shape = (C,) if per_axis else ()
        return [
            numpy_helper.from_array(np.full(shape, value, np.float32), "s" + name),
            numpy_helper.from_array(np.full(shape, 128, np.uint8), "z" + name),
        ]

    inits = [
        *scale_zero("x", 0.02, per_axis_in),
        *scale_zero("y", 0.05, per_axis_out),
        numpy_helper.from_array(np.array(0.01, np.float32), "sw"),
        numpy_helper.from_array(np.array(0, np.int8), "zw"),
        numpy_helper.from_array((np.arange(C * C * 9).reshape(C, C, 3, 3) % 7 - 3).astype(np.int8), "wq"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "sw", "zw"], ["wd"]),
        helper.make_node("Conv", ["xd", "wd"], ["m"], pads=[1, 1, 1, 1]),
        helper.make_node("QuantizeLinear", ["m", "sy", "zy"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, 5, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, C, 5, 5])],
        inits,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def run(m: onnx.ModelProto, level: str, x: np.ndarray) -> np.ndarray:
    so = ort.SessionOptions()
    so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    so.log_severity_level = 4
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


x = np.linspace(-1, 1, C * 25, dtype=np.float32).reshape(1, C, 5, 5)
bad = False
for per_axis_in, per_axis_out in ((False, False), (True, False), (False, True)):
    m = model(per_axis_in, per_axis_out)
    reference = run(m, "ORT_DISABLE_ALL", x)
    name = f"input pair {'per-axis' if per_axis_in else 'per-tensor'}, output pair {'per-axis' if per_axis_out else 'per-tensor'}"
    for level in ("ORT_ENABLE_EXTENDED", "ORT_ENABLE_ALL"):
        try:
            y = run(m, level, x)
        except Exception as exc:  # noqa: BLE001 - the refusal is the finding
            print(f"{name} at {level}: fails: {str(exc).strip().splitlines()[0][-120:]}")
            bad = True
            continue
        same = np.allclose(y, reference, atol=0.051)  # one output quantum
        print(f"{name} at {level}: runs, {'same as' if same else 'DIFFERS from'} ORT_DISABLE_ALL")
        bad |= not same
print("onnxruntime", ort.__version__, "->", "BUG" if bad else "ok")
sys.exit(1 if bad else 0)
