"""onnxoptimizer 0.4.2, pass eliminate_shape_op (also in the default optimize()): a Shape whose start is after its
end (start=2, end=1 on a rank-4 input: an empty result, Operators.md Shape-15 "the output is empty if start >= end")
makes the pass crash the process (SIGSEGV); start=1, end=2 is folded correctly. Exit 1 while the bug is present."""

import subprocess
import sys

import onnx
import onnxoptimizer
from onnx import parser

SRC = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3, 4, 5] x) => (int64[{n}] s) {{
  s = Shape <start = {start}, end = {end}> (x)
}}"""

if len(sys.argv) > 1:  # the child: one optimize call
    start, end, n = sys.argv[1:4]
    model = parser.parse_model(SRC.format(start=start, end=end, n=n))
    onnx.checker.check_model(model, full_check=True)  # valid
    out = onnxoptimizer.optimize(model, ["eliminate_shape_op"])
    print([(t.name, list(t.dims)) for t in out.graph.initializer], [n.op_type for n in out.graph.node])
    sys.exit(0)

print("onnx", onnx.__version__, "onnxoptimizer", onnxoptimizer.__version__)
failed = False
for start, end, n in (("1", "2", "1"), ("2", "1", "0")):
    r = subprocess.run([sys.executable, __file__, start, end, n], capture_output=True, text=True)
    print(f"Shape<start={start}, end={end}>: exit {r.returncode}", r.stdout.strip()[-200:])
    if r.returncode < 0:
        print("BUG: the pass killed its process with signal", -r.returncode)
        failed = True
sys.exit(1 if failed else 0)
