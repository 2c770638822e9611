"""onnxruntime's make_dynamic_shape_fixed (``onnx_model_utils.make_dim_param_fixed``) drops the denotation of every
dimension it fixes.

x: float[N, 4] with dim 0 denoted DATA_BATCH (TensorShapeProto.Dimension.denotation, DimensionDenotation.md: a
field beside dim_value / dim_param, not part of their oneof), y = Relu(x) likewise. Fixing the batch size to 1
keeps it the batch axis; ``_replace_symbolic_dim_value`` calls ``dim.Clear()`` before it writes the value, which
clears the denotation too. Exits 1 while a fixed dim lost its denotation.
"""

import sys

import onnx
from onnx import TensorProto, helper
from onnxruntime.tools.onnx_model_utils import fix_output_shapes, make_dim_param_fixed

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
for v in (x, y):
    v.type.tensor_type.shape.dim[0].denotation = "DATA_BATCH"
m = helper.make_model(
    helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
    opset_imports=[helper.make_opsetid("", 18)],
    ir_version=8,
)
onnx.checker.check_model(m, full_check=True)
make_dim_param_fixed(m.graph, "N", 1)
fix_output_shapes(m)
got = [
    (v.name, v.type.tensor_type.shape.dim[0].dim_value, v.type.tensor_type.shape.dim[0].denotation)
    for v in (*m.graph.input, *m.graph.output)
]
print(f"(value, dim 0, its denotation) after fixing N to 1: {got}")
sys.exit(1 if any(d != "DATA_BATCH" for _, _, d in got) else 0)
