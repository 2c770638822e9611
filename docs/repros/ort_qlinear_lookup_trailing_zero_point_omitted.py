"""onnxruntime: a com.microsoft QLinearSigmoid or QLinearLeakyRelu whose trailing optional input Y_zero_point is left
off (four inputs) kills the process when the session is created (SIGABRT: libstdc++'s bounds assertion on the node's
input list), at every optimization level. IR.md §Nodes: trailing optional inputs may be omitted, the same node as one
that writes them ""; ContribOperators.md: Y_zero_point is optional for both ops. The kernel's constructor
(``onnxruntime/contrib_ops/cpu/quantization/qlinear_activations.cc``,
``QLinearLookupBase<T>::BuildLookupTableIfFixed``) reads
``InputDefs()[4]`` without checking how many inputs the node has. The same node with Y_zero_point written "" runs.
Sessions run in a child process so the crash is observed, not suffered. Exits 1 while the omitted form kills its
process and the "" form runs."""

import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(op, inputs):
    inits = [nh.from_array(np.array(0.1, np.float32), "xs"), nh.from_array(np.array(0.2, np.float32), "ys")]
    inits.append(nh.from_array(np.array(3, np.int8), "xz"))
    node = h.make_node(op, inputs, ["y"], domain="com.microsoft")
    x = h.make_tensor_value_info("x", T.INT8, [2, 3])
    y = h.make_tensor_value_info("y", T.INT8, [2, 3])
    g = h.make_graph([node], "g", [x], [y], inits)
    opsets = [h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)]
    return h.make_model(g, opset_imports=opsets, ir_version=8)


RUN = """
import sys, numpy as np, onnxruntime as ort
so = ort.SessionOptions()
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
s = ort.InferenceSession(sys.stdin.buffer.read(), so, providers=["CPUExecutionProvider"])
print(s.run(None, {"x": np.arange(6, dtype=np.int8).reshape(2, 3)})[0].ravel().tolist())
"""


def run(m):
    onnx.checker.check_model(m)
    p = subprocess.run([sys.executable, "-c", RUN], input=m.SerializeToString(), capture_output=True, timeout=120)
    return p.returncode, (p.stdout or p.stderr).decode(errors="replace").strip().splitlines()[-1:]


import onnxruntime  # noqa: E402

print("onnx", onnx.__version__, "onnxruntime", onnxruntime.__version__)
bug = False
for op in ("QLinearSigmoid", "QLinearLeakyRelu"):
    omitted, empty = run(model(op, ["x", "xs", "xz", "ys"])), run(model(op, ["x", "xs", "xz", "ys", ""]))
    print(f"{op}(x, xs, xz, ys): exit", omitted[0], *[s[:120] for s in omitted[1]])
    print(f'{op}(x, xs, xz, ys, ""): exit', *empty)
    bug |= omitted[0] < 0 and empty[0] == 0
sys.exit(1 if bug else 0)
