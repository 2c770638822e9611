"""onnx's version converter on a model whose graph input and output carry a doc_string: `y = Relu(x)`, opset 13,
converted to opset 14 (Relu-14 is a new version: the converter steps through it). IR.md §Graphs: a ValueInfoProto's
doc_string is part of what the graph says of its interface; nothing about the Relu step touches it. Exits 1 when
the converted model's input or output has lost its doc_string. No passcheck."""

import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import version_converter

x = h.make_tensor_value_info("x", T.FLOAT, [2, 3], doc_string="the input, documented")
y = h.make_tensor_value_info("y", T.FLOAT, [2, 3], doc_string="the output, documented")
g = h.make_graph([h.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
out = version_converter.convert_version(m, 14)
docs = {v.name: v.doc_string for v in [*out.graph.input, *out.graph.output]}
print("onnx", onnx.__version__, "doc_strings after conversion:", docs)
if docs != {"x": "the input, documented", "y": "the output, documented"}:
    print("the converter dropped what the interface says of itself")
    raise SystemExit(1)
print("kept")
