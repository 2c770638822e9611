"""onnx.version_converter 18 -> 17 on ReduceProd-18 without its optional axes input (no passcheck).
Run in a child process: the converter may kill the interpreter."""

import subprocess
import sys

import onnx

CODE = r"""
import onnx
from onnx import helper as h, TensorProto as T, version_converter
g = h.make_graph([h.make_node("Shape", ["x"], ["s"]), h.make_node("ReduceProd", ["s"], ["n"], keepdims=0)],
    "g", [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])], [h.make_tensor_value_info("n", T.INT64, [])])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
out = version_converter.convert_version(m, 17)
onnx.checker.check_model(out, full_check=True)
print("converted:", [(n.op_type, [a.name for a in n.attribute]) for n in out.graph.node])
"""

p = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True)
print(
    "onnx",
    onnx.__version__,
    "exit",
    p.returncode,
    (p.stdout + p.stderr).strip().splitlines()[-1][:240] if (p.stdout + p.stderr).strip() else "",
)
raise SystemExit(0 if p.returncode == 0 else 1)
