"""onnxruntime's make_dynamic_shape_fixed (``onnx_model_utils.make_input_shape_fixed``) makes every dim_value 0 of the
graph unknown, on inputs it was not asked to fix too.

x: float[N, 4] and past: float[1, 0, 4] (an empty cache, a fixed zero-size axis), y = Relu(x), p = Identity(past):
float[1, 0, 4]. A size of 0 is a size: the checker accepts the model and onnxruntime runs it on an empty feed.
make_input_shape_fixed(graph, "x", [3, 4]) first calls ``remove_invalid_dim_values`` ("typically this is a dim_value
of -1"), which clears every dim_value below 1 in the graph and its subgraphs: past and p become [1, ?, 4], so the
tool meant to make shapes fixed leaves an input that was fixed dynamic. Exits 1 while a 0 of a value other than
the input it fixes is lost.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnxruntime.tools.onnx_model_utils import fix_output_shapes, make_input_shape_fixed

vi = helper.make_tensor_value_info
g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Identity", ["past"], ["p"])],
    "g",
    [vi("x", TensorProto.FLOAT, ["N", 4]), vi("past", TensorProto.FLOAT, [1, 0, 4])],
    [vi("y", TensorProto.FLOAT, ["N", 4]), vi("p", TensorProto.FLOAT, [1, 0, 4])],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
feeds = {"x": np.ones((3, 4), np.float32), "past": np.zeros((1, 0, 4), np.float32)}
ort.InferenceSession(m.SerializeToString()).run(None, feeds)  # the zero-size axis runs as annotated
make_input_shape_fixed(m.graph, "x", [3, 4])
fix_output_shapes(m)
dims = lambda v: [
    d.dim_value if d.HasField("dim_value") else (d.dim_param or "?") for d in v.type.tensor_type.shape.dim
]  # noqa: E731
got = {v.name: dims(v) for v in (*m.graph.input, *m.graph.output)}
print(f"after make_input_shape_fixed(graph, 'x', [3, 4]): {got}")
sys.exit(1 if got["past"] != [1, 0, 4] or got["p"] != [1, 0, 4] else 0)
