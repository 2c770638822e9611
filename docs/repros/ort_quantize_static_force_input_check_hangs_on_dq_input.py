"""onnxruntime's static quantizer never returns with ForceQuantizeNoInputCheck on a Transpose of a DequantizeLinear
(found.md row 1455).

``quantize_static(..., extra_options={"ForceQuantizeNoInputCheck": True})`` ("force such operator always quantize
input", ``quantize.py``'s docstring) makes a latent op such as Transpose (``QDQDirect8BitOp``) ask for its output to
share the quantization parameters of its input without checking that the input is one the quantizer quantizes. When
that input is the output of a DequantizeLinear already in the model (a model with some Q/DQ already, e.g. partly
quantized), the quantizer leaves it alone, and ``QDQQuantizer._quantize_sharing_param_tensors`` then loops
``while self.tensors_to_quantize`` forever: the waiting output's provider never enters ``quantized_value_map``.
Without the option the same call returns at once (the Transpose kept float).

The script runs both calls in a child process each (60 s allowed; the plain call takes well under a second) and exits
1 when the call with the option does not return, 0 when it returns or raises. Needs onnx, onnxruntime and numpy.
"""

import subprocess
import sys

CHILD = r"""
import os, sys, tempfile
import numpy as np, onnx
from onnx import parser
from onnxruntime import quantization as q
m = parser.parse_model('''<ir_version: 8, opset_import: ["" : 17]>
g (float[2,8] x) => (float[8,2] y) <float sx = {0.05}, uint8 zx = {128}> {
  xq = QuantizeLinear(x, sx, zx)
  xd = DequantizeLinear(xq, sx, zx)
  t = Transpose(xd)
  y = Neg(t)
}''')
x = np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32)
class Reader(q.CalibrationDataReader):
    def __init__(self): self.it = iter([{"x": x}])
    def get_next(self): return next(self.it, None)
d = tempfile.mkdtemp(); src = os.path.join(d, "f.onnx"); onnx.save(m, src)
extra = {"ForceQuantizeNoInputCheck": True} if sys.argv[1] == "force" else {}
q.quantize_static(src, os.path.join(d, "q.onnx"), Reader(), extra_options=extra)
print("returned:", [n.op_type for n in onnx.load(os.path.join(d, "q.onnx")).graph.node])
"""

hung = False
for mode in ("plain", "force"):
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True, timeout=60)
        print(f"{mode}: exit {done.returncode}; {(done.stdout.strip() or done.stderr.strip().splitlines()[-1])}")
    except subprocess.TimeoutExpired:
        print(f"{mode}: no result after 60 s (killed)")
        hung = hung or mode == "force"
sys.exit(1 if hung else 0)
