"""onnxruntime: running a BatchNormalization-9 whose four optional outputs are written as "" kills the process
(SIGSEGV). IR.md §Optional Inputs and Outputs: an optional output written as an empty name is not produced, the
same node as one whose trailing outputs are left off; the full checker accepts it (Operators.md
BatchNormalization-9: outputs 1 - 5, four optional). The same node with ``Y`` alone runs. The session is run in a
child process so the crash is observed, not suffered. Exits 1 while the empty-named form kills its process and
the other runs."""

import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(outputs):
    x = h.make_tensor_value_info("x", T.FLOAT, [1, 2, 3, 3])
    y = h.make_tensor_value_info("y", T.FLOAT, [1, 2, 3, 3])
    inits = [nh.from_array(np.ones(2, np.float32), n) for n in ("s", "b", "m", "v")]
    node = h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], outputs)
    g = h.make_graph([node], "g", [x], [y], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 9)], ir_version=8)


RUN = """
import sys, numpy as np, onnxruntime as ort
s = ort.InferenceSession(sys.stdin.buffer.read(), providers=["CPUExecutionProvider"])
print(s.run(None, {"x": np.ones((1, 2, 3, 3), np.float32)})[0].ravel()[:3])
"""


def run(m):
    onnx.checker.check_model(m, full_check=True)
    p = subprocess.run([sys.executable, "-c", RUN], input=m.SerializeToString(), capture_output=True, timeout=120)
    return p.returncode, (p.stdout or p.stderr).decode(errors="replace").strip().splitlines()[-1:]


import onnxruntime  # noqa: E402

print("onnx", onnx.__version__, "onnxruntime", onnxruntime.__version__)
omitted, empty = run(model(["y"])), run(model(["y", "", "", "", ""]))
print("Y alone: exit", *omitted)
print('Y, "", "", "", "": exit', *empty)
sys.exit(1 if empty[0] < 0 and omitted[0] == 0 else 0)
