"""onnx's version converter on a model whose graph output is a sequence: `s = SplitToSequence(x, axis=1)`,
`x: float[2, 3, 4]`, `s: seq(float[2, ?, 4])`, opset 18, converted to opset 17 (SplitToSequence-11 is the schema at
both, so nothing needs to change). IR.md: a graph output's ValueInfoProto has a type, a sequence type included.
Exits 1 when the converted model has lost it (the checker: "Field 'type' of 'value_info' is required but missing").
No passcheck."""

import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import version_converter

elem = h.make_tensor_type_proto(T.FLOAT, [2, None, 4])
g = h.make_graph(
    [h.make_node("SplitToSequence", ["x"], ["s"], axis=1)],
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])],
    [h.make_value_info("s", h.make_sequence_type_proto(elem))],
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
out = version_converter.convert_version(m, 17)
(o,) = out.graph.output
print("onnx", onnx.__version__, "output type after conversion:", str(o.type).replace("\n", " ")[:160] or "(none)")
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as e:
    print("the checker rejects the converted model:", str(e).splitlines()[0][:160])
    raise SystemExit(1) from None
print("the converted model keeps its output's type")
