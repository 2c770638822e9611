"""onnx's strict shape inference accepts TopK with K = 0 (and negative K) and writes that K into the output shape.

Operators.md TopK (opset 10 on), input K: "a 1-D tensor containing a single positive value". onnx 1.23.2's TopK
inference reads K only to write the output dim along `axis`, and never checks it: `v, i = TopK(x, K, axis=1)`,
`x: float[2, 5]`, K an int64 initializer `[0]`, opset 18, passes `check_model(full_check=True)` (strict inference)
and `infer_shapes(strict_mode=True)` gives `v: [2, 0]`; with `K = [-2]` it writes a dim of -2, which no tensor has.
The same node with `axis = 2` (out of range) is refused. onnxruntime 1.32.0 runs K = 0 (two [2, 0] outputs). Also
onnx 1.16.2 … 1.22.0. Public as onnx/onnx#8478 (2026-09, open).
Exits 1 while strict inference accepts K = 0 or K = -2, 0 once it refuses both.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(k):
    n = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=1)
    g = helper.make_graph(
        [n],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5])],
        [
            helper.make_tensor_value_info("v", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("i", TensorProto.INT64, None),
        ],
        [numpy_helper.from_array(np.array([k], np.int64), "k")],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


bad = False
for k in (0, -2):
    m = model(k)
    try:
        inferred = onnx.shape_inference.infer_shapes(m, strict_mode=True)
    except Exception as e:  # noqa: BLE001 - the refusal expected
        print(f"K = [{k}]: refused ({str(e).splitlines()[0][:120]})")
        continue
    dims = [
        d.dim_value if d.HasField("dim_value") else "?" for d in inferred.graph.output[0].type.tensor_type.shape.dim
    ]
    print(f"K = [{k}]: accepted by strict shape inference, v inferred as {dims}")
    bad = True
sys.exit(1 if bad else 0)
