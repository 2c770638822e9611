"""onnxruntime at ORT_ENABLE_ALL (x86_64): a session on ``y = MatMul(Cast(Transpose(x, perm=[1, 0, 2]), to=T), W)``
with the Cast widening or narrowing between float types (float16 → float, float → double, double → float) kills
the process (SIGSEGV) while the session is built; the same model with the Cast's round trip closed before the
Transpose, or with no Cast, builds and runs. Operators.md Cast is elementwise and Transpose only moves elements,
so ``Cast(Transpose(Cast(x, to=DOUBLE)), to=FLOAT)`` is ``Transpose(x)``: the full checker accepts every model
here. microsoft/onnxruntime#28392 (NchwcTransformer dereferences ``node.Op()`` of a node an earlier transformer
added — MatmulTransposeFusion reorders ``Transpose → Cast → MatMul`` — before the graph is resolved again; fix
proposed in #29194). Each session is built in a child process so the crash is observed, not suffered. Exits 1
while a Cast-after-Transpose form kills its process and the Cast-free form runs."""

import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(chain):
    """``x: float[1, 2, 4]`` through ``chain`` (a list of (op, attrs)) then MatMul with a float W [4, 3]."""
    x = h.make_tensor_value_info("x", T.FLOAT, [1, 2, 4])
    y = h.make_tensor_value_info("y", T.FLOAT, [2, 1, 3])
    nodes, src = [], "x"
    for i, (op, attrs) in enumerate(chain):
        nodes.append(h.make_node(op, [src], [f"v{i}"], **attrs))
        src = f"v{i}"
    nodes.append(h.make_node("MatMul", [src, "W"], ["y"]))
    w = nh.from_array((np.arange(12, dtype=np.float32).reshape(4, 3) - 6) / 4, "W")
    g = h.make_graph(nodes, "g", [x], [y], [w])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


RUN = """
import sys, numpy as np, onnxruntime as ort
so = ort.SessionOptions(); so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
s = ort.InferenceSession(sys.stdin.buffer.read(), so, providers=["CPUExecutionProvider"])
print(s.run(None, {"x": np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 2, 4)})[0].ravel()[:3])
"""


def run(m):
    p = subprocess.run([sys.executable, "-c", RUN], input=m.SerializeToString(), capture_output=True, timeout=300)
    return p.returncode, (p.stdout or p.stderr).decode(errors="replace").strip().splitlines()[-1:]


import onnxruntime  # noqa: E402

print("onnx", onnx.__version__, "onnxruntime", onnxruntime.__version__)
tr = ("Transpose", {"perm": [1, 0, 2]})
plain = run(model([tr]))
before = run(model([("Cast", {"to": T.DOUBLE}), ("Cast", {"to": T.FLOAT}), tr]))
across = run(model([("Cast", {"to": T.DOUBLE}), tr, ("Cast", {"to": T.FLOAT})]))
print("Transpose -> MatMul: exit", *plain)
print("Cast(double) -> Cast(float) -> Transpose -> MatMul: exit", *before)
print("Cast(double) -> Transpose -> Cast(float) -> MatMul: exit", *across)
sys.exit(1 if across[0] < 0 and plain[0] == 0 and before[0] == 0 else 0)
