"""onnxslim 0.1.98 (also 0.1.92) `onnxslim.slim` on `y = Neg(Relu(x))`, `x`, `y: float[2, 3]`, each with a
doc_string (IR.md §Graphs: a ValueInfoProto's doc_string documents the input or output; the interface the
caller reads). Nothing is folded or fused; the output's graph input and output have lost their doc_strings.
Exit 1 while they are dropped."""

import sys

import onnx
import onnxslim
from onnx import TensorProto, helper

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
x.doc_string = "documented x"
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
y.doc_string = "documented y"
g = helper.make_graph([helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])], "g", [x], [y])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
out = onnxslim.slim(m)
got = (out.graph.input[0].doc_string, out.graph.output[0].doc_string)
print(onnxslim.__version__, "doc_strings after slim:", got)
if got != ("documented x", "documented y"):
    print("BUG: onnxslim dropped the interface's doc_strings")
    sys.exit(1)
print("ok")
