"""onnxruntime: running a DFT-20 whose optional ``axis`` input is written as "" kills the process (SIGSEGV).
IR.md §Optional Inputs and Outputs: an optional input written as an empty name is not supplied, the same node as
one whose trailing inputs are left off; Operators.md DFT-20: ``dft_length`` and ``axis`` are optional (``axis``
defaults to -2). The checker accepts both nodes; ``DFT(x)`` and ``DFT(x, "")`` run. The session is run in a
child process so the crash is observed, not suffered. Exits 1 while ``DFT(x, "", "")`` kills its process and
``DFT(x)`` runs; 0 once both run and agree."""

import subprocess
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h


def model(inputs):
    x = h.make_tensor_value_info("x", T.FLOAT, [2, 8, 1])
    y = h.make_tensor_value_info("y", T.FLOAT, [2, 8, 2])
    g = h.make_graph([h.make_node("DFT", inputs, ["y"])], "g", [x], [y])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 20)], ir_version=9)


RUN = """
import sys, numpy as np, onnxruntime as ort
s = ort.InferenceSession(sys.stdin.buffer.read(), providers=["CPUExecutionProvider"])
x = np.arange(16, dtype=np.float32).reshape(2, 8, 1)
print(np.round(s.run(None, {"x": x})[0].ravel()[:4], 4).tolist())
"""


def run(m):
    onnx.checker.check_model(m, full_check=True)
    p = subprocess.run([sys.executable, "-c", RUN], input=m.SerializeToString(), capture_output=True, timeout=120)
    return p.returncode, (p.stdout or p.stderr).decode(errors="replace").strip().splitlines()[-1:]


import onnxruntime  # noqa: E402

print("onnx", onnx.__version__, "onnxruntime", onnxruntime.__version__)
omitted, empty = run(model(["x"])), run(model(["x", "", ""]))
print("DFT(x): exit", *omitted)
print('DFT(x, "", ""): exit', *empty)
sys.exit(1 if omitted[0] == 0 and (empty[0] != 0 or empty[1] != omitted[1]) else 0)
