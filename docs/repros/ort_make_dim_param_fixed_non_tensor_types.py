"""onnxruntime's make_dynamic_shape_fixed (``onnx_model_utils.make_dim_param_fixed``) leaves the symbol it fixes in
sequence- and optional-typed values.

x: float[N, 4] -> s = SequenceConstruct(x): seq(float[N, 4]) (value_info), y = SequenceAt(s, 0): float[N, 4],
o = Optional(x): optional(float[N, 4]). A dim_param names one size everywhere it occurs (IR.md, Static tensor
shapes); the tool's docstring: "Iterate all values in the graph, replacing dim_param in a tensor shape with the
provided value". After make_dim_param_fixed(graph, "N", 3) (and fix_output_shapes, as the command line runs it)
x and y read 3 but s and o still read N: ``_replace_symbolic_dim_value`` reads ``tensor_type`` only, never a
sequence's, optional's or map's element type nor a sparse tensor's shape. Exits 1 while N is left anywhere.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnxruntime.tools.onnx_model_utils import fix_output_shapes, make_dim_param_fixed

t = lambda: helper.make_tensor_type_proto(TensorProto.FLOAT, ["N", 4])  # noqa: E731
g = helper.make_graph(
    [
        helper.make_node("SequenceConstruct", ["x"], ["s"]),
        helper.make_node("SequenceAt", ["s", "zero"], ["y"]),
        helper.make_node("Optional", ["x"], ["o"]),
    ],
    "g",
    [helper.make_value_info("x", t())],
    [helper.make_value_info("y", t()), helper.make_value_info("o", helper.make_optional_type_proto(t()))],
    [helper.make_tensor("zero", TensorProto.INT64, [], [0])],
    value_info=[helper.make_value_info("s", helper.make_sequence_type_proto(t()))],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
make_dim_param_fixed(m.graph, "N", 3)
fix_output_shapes(m)
ort.InferenceSession(m.SerializeToString()).run(None, {"x": np.ones((3, 4), np.float32)})  # it still runs
left = [v.name for v in [*m.graph.input, *m.graph.output, *m.graph.value_info] if 'dim_param: "N"' in str(v.type)]
print(onnx.printer.to_text(m.graph).splitlines()[0])
print(f"values still annotated with N after fixing it to 3: {left}")
sys.exit(1 if left else 0)
