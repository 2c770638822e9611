"""onnxruntime's transpose optimizer (every level from ORT_ENABLE_BASIC) on a per-axis QuantizeLinear /
DequantizeLinear pair read by a Transpose: `y = Neg(Transpose(DequantizeLinear(QuantizeLinear(x, s, z), s, z)))`,
`x: float[N, 8]`, `s: float[8]`, `z: uint8[8]` (axis 1, the default; Operators.md QuantizeLinear-13 /
DequantizeLinear-13: a 1-D scale of the axis's length is per-axis quantization; here every entry is equal, so the
model computes what the per-tensor spelling does). Some versions' process dies while the session is created (a
libstdc++ assertion on an empty std::optional<std::vector<int64_t>>, SIGABRT). No passcheck. Each level runs in a
child process; exits 1 while any level's session dies, is refused or computes otherwise than ORT_DISABLE_ALL, 0
once every level runs it right."""

import subprocess
import sys

CHILD = r"""
import sys
import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

graph = helper.make_graph(
    [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["xd"]),
        helper.make_node("Transpose", ["xd"], ["t"]),
        helper.make_node("Neg", ["t"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, "N"])],
    [
        numpy_helper.from_array(np.full((8,), 0.02, np.float32), "s"),
        numpy_helper.from_array(np.full((8,), 128, np.uint8), "z"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
onnx.checker.check_model(model, full_check=True)
so = ort.SessionOptions()
so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, sys.argv[1])
so.log_severity_level = 4
x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
y = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
expected = -(np.clip(np.rint(x / 0.02) + 128, 0, 255) - 128).T * 0.02
print("same" if np.allclose(y, expected, atol=1e-6) else "DIFFERS")
"""

import onnxruntime as ort  # noqa: E402 - the version, printed first

print("onnxruntime", ort.__version__)
bad = False
for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_BASIC", "ORT_ENABLE_EXTENDED", "ORT_ENABLE_ALL"):
    got = subprocess.run([sys.executable, "-c", CHILD, level], capture_output=True, text=True, timeout=300)
    out = got.stdout.strip().splitlines()[-1:] or [got.stderr.strip().splitlines()[-1:] or ""]
    if got.returncode != 0 or out != ["same"]:
        bad = True
        print(f"{level}: exit {got.returncode}: {(got.stderr.strip().splitlines() or [''])[-1][-200:]}")
    else:
        print(f"{level}: runs, right")
print("BUG" if bad else "ok")
sys.exit(1 if bad else 0)
