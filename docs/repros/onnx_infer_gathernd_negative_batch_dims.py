"""onnx's strict shape inference accepts GatherND with a negative batch_dims and infers a shape from it.

Operators.md GatherND, attribute batch_dims: the number b of leading dimensions data and indices share ("the
first b dimensions of the shape of indices tensor and data tensor must be equal"; b < min(q, r)), so b >= 0.
onnx 1.23.2's inference does not check the sign: `y = GatherND(x, j, batch_dims=-1)`, `x: float[2, 3]`, `j: int64
[2, 1]`, opset 18, passes `check_model(full_check=True)` and `infer_shapes(strict_mode=True)` gives `y: [2, 2, 3]`,
a shape no batch count gives (b = 0 gives [2, 3]); onnxruntime 1.32.0 loads it and fails at run time ("Integer
overflow", safeint.h). Also onnx 1.16.2 … 1.22.0. The fix (onnx/onnx#8465, 2026-09, merged after 1.23) says the
negative value makes the inference function read out of bounds. Each check runs in a child process: a
crash counts as not refused. Exits 1 while strict inference accepts it, 0 once it refuses it.
"""

import subprocess
import sys

CHILD = """
import sys
import onnx
from onnx import TensorProto, helper
n = helper.make_node("GatherND", ["x", "j"], ["y"], batch_dims=-1)
g = helper.make_graph([n], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
    helper.make_tensor_value_info("j", TensorProto.INT64, [2, 1])], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
try:
    out = onnx.shape_inference.infer_shapes(m, strict_mode=True)
except Exception as e:
    print("refused:", str(e).splitlines()[0][:120]); sys.exit(0)
print("accepted, y inferred as", [d.dim_value for d in out.graph.output[0].type.tensor_type.shape.dim]); sys.exit(1)
"""

r = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
print(f"batch_dims = -1: {r.stdout.strip() or f'inference died (exit {r.returncode})'}")
sys.exit(0 if r.returncode == 0 else 1)
