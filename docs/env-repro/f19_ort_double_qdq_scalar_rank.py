"""onnxruntime's DoubleQDQPairsRemover writes the scale / zero point it recomputes with shape [1] for a scalar.

`y = DQ(Q(DQ(Q(DQ(Q(a)))) * DQ(Q(DQ(Q(b))))))`: each operand passes two QuantizeLinear -> DequantizeLinear pairs with
different scalar scales (per-tensor; Operators.md QuantizeLinear: "a scalar for per-tensor / per layer
quantization"). DoubleQDQPairsRemover (`ORT_ENABLE_BASIC` and up) merges each double pair into one and writes the
scale and zero point it recomputes as new initializers (`DoubleQDQRemoved_*`) of shape `[1]` where the model's are
scalars; at `ORT_ENABLE_EXTENDED` the QDQ Mul -> QLinearMul fusion then writes a QLinearMul whose type inference
refuses them ("Scale and Zero-point must be a scalar"), and the session of a valid model cannot be created. No
passcheck. Met by round 23b's after hunt (signature 10, `vary:qdq-requant`, in onnx-1.21: onnxruntime 1.25.1, absent
in onnx-1.22). microsoft/onnxruntime#28030, fixed by #28057 (the `add_dims(1)` of `ApplyNewInputValue`).
Exits 1 while the ORT_ENABLE_EXTENDED session is refused or the basic level's saved model holds a recomputed
scale / zero point of rank 1; 0 once it runs and every one is a scalar."""

import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

print("onnxruntime", ort.__version__)


def scalar(value, dtype, name):
    return numpy_helper.from_array(np.array(value, dtype), name)


inits, nodes = [], []
for v in ("a", "b"):
    inits += [
        scalar(0.03125, np.float32, f"{v}_s1"),
        scalar(128, np.uint8, f"{v}_z1"),
        scalar(0.0625, np.float32, f"{v}_s2"),
        scalar(128, np.uint8, f"{v}_z2"),
    ]
    nodes += [
        helper.make_node("QuantizeLinear", [v, f"{v}_s1", f"{v}_z1"], [f"{v}_q1"]),
        helper.make_node("DequantizeLinear", [f"{v}_q1", f"{v}_s1", f"{v}_z1"], [f"{v}_d1"]),
        helper.make_node("QuantizeLinear", [f"{v}_d1", f"{v}_s2", f"{v}_z2"], [f"{v}_q2"]),
        helper.make_node("DequantizeLinear", [f"{v}_q2", f"{v}_s2", f"{v}_z2"], [f"{v}_d2"]),
    ]
inits += [scalar(0.0625, np.float32, "y_s"), scalar(128, np.uint8, "y_z")]
nodes += [
    helper.make_node("Mul", ["a_d2", "b_d2"], ["m"]),
    helper.make_node("QuantizeLinear", ["m", "y_s", "y_z"], ["yq"]),
    helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"]),
]
graph = helper.make_graph(
    nodes,
    "double_qdq",
    [helper.make_tensor_value_info(v, TensorProto.FLOAT, [2, 4]) for v in ("a", "b")],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
feeds = {v: np.linspace(-2, 2, 8, dtype=np.float32).reshape(2, 4) for v in ("a", "b")}


def session(level, path=None):
    so = ort.SessionOptions()
    so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    so.log_severity_level = 3
    if path:
        so.optimized_model_filepath = path
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


bad = False
with tempfile.TemporaryDirectory() as d:
    path = str(Path(d) / "basic.onnx")
    session("ORT_ENABLE_BASIC", path)
    saved = onnx.load(path)
    ranked = {t.name: list(t.dims) for t in saved.graph.initializer if t.name.startswith("DoubleQDQRemoved") and t.dims}
    print("recomputed initializers that are not scalars (ORT_ENABLE_BASIC):", ranked or "none")
    bad |= bool(ranked)
expected = session("ORT_DISABLE_ALL").run(None, feeds)[0]
try:
    got = session("ORT_ENABLE_EXTENDED").run(None, feeds)[0]
    print("ORT_ENABLE_EXTENDED runs; max abs difference from ORT_DISABLE_ALL:", float(np.abs(got - expected).max()))
except Exception as exc:  # noqa: BLE001 - the refusal is the finding
    print("ORT_ENABLE_EXTENDED refused:", str(exc).splitlines()[0][:200])
    bad = True
sys.exit(1 if bad else 0)
