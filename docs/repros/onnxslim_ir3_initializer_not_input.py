"""onnxslim.slim: a Constant node lowered to an initializer in an IR-version-3 model, not listed in graph.input.

IR.md (IR version 3): every initializer must also be a graph input; from IR version 4 it need not.
y = PRelu(x, Constant(0.1)) (the slope as a Constant node; LeakyRelu spelled as PRelu), opset 7, IR 3.
slim moves the Constant into graph.initializer only, so the checker rejects the output
("… in initializer but not in graph input"). Exits 1 while the output is invalid.
"""

import sys

import numpy as np
import onnx
import onnxslim
from onnx import TensorProto, helper, numpy_helper

nodes = [
    helper.make_node("Constant", [], ["slope"], value=numpy_helper.from_array(np.array([0.1], np.float32), "v")),
    helper.make_node("PRelu", ["x", "slope"], ["y"]),
]
g = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 7)], ir_version=3)
onnx.checker.check_model(m, full_check=True)
out = onnxslim.slim(m)
print(
    "ir_version",
    out.ir_version,
    "initializers",
    [t.name for t in out.graph.initializer],
    "inputs",
    [i.name for i in out.graph.input],
)
try:
    onnx.checker.check_model(out, full_check=True)
    print("output valid")
    sys.exit(0)
except Exception as e:  # the finding
    print("output INVALID:", str(e).splitlines()[0][:120])
    sys.exit(1)
