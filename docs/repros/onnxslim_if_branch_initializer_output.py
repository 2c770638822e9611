"""onnxslim (`onnxslim.slim(m)`) on `y = If(c)` whose branches each return one of their own initializers (a subgraph
output named by an initializer of that subgraph, as a graph output may be: the onnx checker accepts the model and
onnxruntime runs it). The slimmed branches lose the initializers and keep the outputs, which nothing then produces:
the checker rejects the output ("Graph output 'y' is not an output of any node in graph"). The same If whose
branches return `Constant` nodes' outputs is slimmed validly. Exit 1 while the branch initializers are dropped."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxslim
from onnx import TensorProto, helper, numpy_helper


def branch(name, value, as_constant):
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])
    t = numpy_helper.from_array(np.array(value, np.float32), "y")
    if as_constant:
        return helper.make_graph([helper.make_node("Constant", [], ["y"], value=t)], name, [], [y])
    return helper.make_graph([], name, [], [y], [t])


def model(as_constant):
    node = helper.make_node(
        "If", ["c"], ["y"],
        then_branch=branch("then", [1, 2, 3], as_constant), else_branch=branch("else", [4, 5, 6], as_constant),
    )
    g = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("c", TensorProto.BOOL, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    onnx.checker.check_model(m, full_check=True)
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    assert s.run(None, {"c": np.array([False])})[0].tolist() == [4, 5, 6]
    return m


out = {}
for name, as_constant in (("Constant nodes", True), ("branch initializers", False)):
    try:
        onnx.checker.check_model(onnxslim.slim(model(as_constant)), full_check=True)
        out[name] = "valid"
    except onnx.checker.ValidationError as e:
        out[name] = str(e).splitlines()[0]
print("onnx", onnx.__version__, "| onnxruntime", ort.__version__, "| onnxslim", onnxslim.__version__, out)
if out["branch initializers"] != "valid":
    print("BUG: the slimmed If branches return outputs nothing produces (their initializers dropped)")
    sys.exit(1)
print("ok")
