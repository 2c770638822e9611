"""onnxruntime's make_dynamic_shape_fixed (``onnx_model_utils.make_dim_param_fixed``) leaves the symbol it fixes in a
model-local function's value_info.

y = pkg.F(x), x: float[N, 4], y: float[N, 4]; F's body b = Relu(a), with ``value_info`` b: float[N, 4] (a
FunctionProto annotates its values since IR 10, IR.md Functions). Dimension variables are not scoped (IR.md,
Static tensor shapes): the body's N is the model's N. After make_dim_param_fixed(model.graph, "N", 3) and
fix_output_shapes, as the command line runs them, the graph reads 3 and the body still reads N: the tool walks
the graph and the subgraphs of its nodes (``iterate_graph_per_graph_func``) and never ``model.functions``.
Exits 1 while N is left in the body.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnxruntime.tools.onnx_model_utils import fix_output_shapes, make_dim_param_fixed

f = helper.make_function(
    "pkg", "F", ["a"], ["b"], [helper.make_node("Relu", ["a"], ["b"])], opset_imports=[helper.make_opsetid("", 18)]
)
f.value_info.append(helper.make_tensor_value_info("b", TensorProto.FLOAT, ["N", 4]))
g = helper.make_graph(
    [helper.make_node("F", ["x"], ["y"], domain="pkg")],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])],
)
m = helper.make_model(
    g, functions=[f], opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("pkg", 1)], ir_version=10
)
onnx.checker.check_model(m, full_check=True)
make_dim_param_fixed(m.graph, "N", 3)
fix_output_shapes(m)
ort.InferenceSession(m.SerializeToString()).run(None, {"x": np.ones((3, 4), np.float32)})  # it still runs
graph_dims = [d.dim_value or d.dim_param for d in m.graph.input[0].type.tensor_type.shape.dim]
body_dims = [d.dim_value or d.dim_param for d in m.functions[0].value_info[0].type.tensor_type.shape.dim]
print(f"graph input x: {graph_dims}; function body value b: {body_dims}")
sys.exit(1 if "N" in body_dims else 0)
