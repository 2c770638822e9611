"""onnx's strict shape inference accepts LayerNormalization with an axis outside [-r, r-1].

Operators.md LayerNormalization, attribute axis: the first normalization dimension; with r the rank of X its allowed
range is [-r, r), a negative value counting from the back. onnx 1.16.2 … 1.23.2's inference refuses an axis below -r
only: `y = LayerNormalization(x, s, axis=2)` (or 5), `x: float[2, 3]`,
`s` a float [3] initializer, opset 18, passes `check_model(full_check=True)` and `infer_shapes(strict_mode=True)`
gives `y: [2, 3]`, while `axis = -3` is refused ("Unexpected axis value"); onnxruntime 1.32.0 refuses `axis = 2`
at load with its own check. The fix (onnx/onnx#8466, 2026-09, merged after 1.23) says the insufficient check lets
the inference function write out of bounds.
Each check runs in a child process: a crash counts as not refused. Exits 1 while axis 2 or 5 is accepted (or
crashes inference), 0 once both are refused.
"""

import subprocess
import sys

CHILD = """
import sys
import numpy as np, onnx
from onnx import TensorProto, helper, numpy_helper
n = helper.make_node("LayerNormalization", ["x", "s"], ["y"], axis=int(sys.argv[1]))
g = helper.make_graph([n], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [numpy_helper.from_array(np.ones(3, np.float32), "s")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
try:
    out = onnx.shape_inference.infer_shapes(m, strict_mode=True)
except Exception as e:
    print("refused:", str(e).splitlines()[0][:120]); sys.exit(0)
print("accepted, y inferred as", [d.dim_value for d in out.graph.output[0].type.tensor_type.shape.dim]); sys.exit(1)
"""

bad = False
for axis in (2, 5):
    r = subprocess.run([sys.executable, "-c", CHILD, str(axis)], capture_output=True, text=True, timeout=120)
    print(f"axis = {axis}: {r.stdout.strip() or f'inference died (exit {r.returncode})'}")
    bad |= r.returncode != 0
sys.exit(1 if bad else 0)
