"""onnx version_converter 9 -> 8: the ExtendSupportedTypes adapter (Constant, Greater, Less, PRelu, ...)
makes invalid models.

Opset 9 widened these ops' types; going down to 8 the adapter casts inputs outside {float16, float,
double} to float and the output back (onnx/version_converter/adapters/extend_supported_types.h).
1. A bool Constant (Constant-9 takes every type; Constant-8 float16/float/double): the output is
   declared float and cast back to bool, but the value tensor stays bool: the checker rejects it.
2. PRelu(X, slope) with float X inside an If branch (X from the outer scope): the adapter cannot
   see X's type there, inserts Cast(to=float) anyway and declares the cast's output with rank 0
   (Value::sizes() of the outer value): shape inference then fails on the branch. The same node in
   the main graph is left alone.
Exits 1 while either output is invalid.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, version_converter


def check(label, m):
    onnx.checker.check_model(m, full_check=True)  # the input is valid
    out = version_converter.convert_version(m, 8)
    try:
        onnx.checker.check_model(out, full_check=True)
        print(f"{label}: output valid")
        return True
    except Exception as e:  # the finding
        print(f"{label}: output INVALID: {type(e).__name__}: {str(e).splitlines()[0][:140]}")
        return False


ok = True
nodes = [
    helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(np.array([True, False]), "v")),
    helper.make_node("Not", ["c"], ["y"]),
]
g = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info("y", TensorProto.BOOL, [2])])
ok &= check("bool Constant", helper.make_model(g, opset_imports=[helper.make_opsetid("", 9)], ir_version=4))

f = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT, [5])  # noqa: E731
branch = lambda n: helper.make_graph([helper.make_node("PRelu", ["X", "slope"], [n])], n, [], [f(n)])  # noqa: E731
cond = numpy_helper.from_array(np.array(True), "cond")
for where, nodes in [
    ("PRelu in main graph", [helper.make_node("PRelu", ["X", "slope"], ["Y"])]),
    ("PRelu in If branch", [helper.make_node("If", ["cond"], ["Y"], then_branch=branch("a"), else_branch=branch("b"))]),
]:
    g = helper.make_graph(nodes, "g", [f("X"), f("slope")], [f("Y")], [cond])
    ok &= check(where, helper.make_model(g, opset_imports=[helper.make_opsetid("", 9)], ir_version=4))
sys.exit(0 if ok else 1)
