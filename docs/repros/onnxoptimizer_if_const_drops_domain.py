"""onnxoptimizer 0.4.2 optimize() (its default pass eliminate_if_with_const_cond) inlines the taken branch of an If
whose condition is a constant, but the inlined node loses its domain: an ai.onnx.ml LabelEncoder inside the branch
comes out as a LabelEncoder of the default domain, which does not exist ("No Op registered for LabelEncoder with
domain_version of 17"). The same LabelEncoder in the main graph keeps its domain. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxoptimizer
from onnx import TensorProto, helper, numpy_helper


def branch(name):
    node = helper.make_node(
        "LabelEncoder", ["x"], [f"a_{name}"], domain="ai.onnx.ml",
        keys_int64s=[0, 1, 2], values_int64s=[10, 11, 12], default_int64=-1,
    )
    return helper.make_graph([node], name, [], [helper.make_tensor_value_info(f"a_{name}", TensorProto.INT64, ["N"])])


graph = helper.make_graph(
    [helper.make_node("If", ["cond"], ["a"], then_branch=branch("then"), else_branch=branch("else"))],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.INT64, ["N"])],
    [helper.make_tensor_value_info("a", TensorProto.INT64, ["N"])],
    [numpy_helper.from_array(np.array(True), "cond")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 4)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxoptimizer.optimize(model)
print([(n.op_type, n.domain) for n in out.graph.node])
try:
    onnx.checker.check_model(out, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG:", str(exc).strip().splitlines()[0])
    sys.exit(1)
print("ok")
