"""onnxslim 0.1.98 (`onnxslim.slim`) on `y = Max(x, b)` whose `b` is an initializer that is also a graph input: from IR
version 4 such an initializer is only a default the caller may feed (IR.md, "Graphs": an initializer named like a
graph input "specifies a default value for that input"). `slim` starts with `onnxslim.core.freeze`, which removes
the graph input of every initializer (no option turns it off; the README and `onnxslim -h` do not mention it), so the
slimmed model refuses a fed `b`, and a caller that feeds only what the model lists gets the default. It also removes
the input from the caller's own ModelProto (`freeze` edits the model it is given). Exit 1 while the defect is present.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxslim
from onnx import helper, numpy_helper

graph = helper.make_graph(
    [helper.make_node("Max", ["x", "b"], ["y"])],
    "g",
    [
        helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [8]),
        helper.make_tensor_value_info("b", onnx.TensorProto.FLOAT, [8]),
    ],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [8])],
    [numpy_helper.from_array(np.zeros(8, np.float32), "b")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.linspace(-3, 3, 8, dtype=np.float32), "b": np.full(8, -2.0, np.float32)}


def run(m, f):
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    names = {i.name for i in sess.get_inputs()} | {i.name for i in sess.get_overridable_initializers()}
    return sess.run(None, {k: v for k, v in f.items() if k in names})[0]


expected = run(model, feeds)
given = onnx.ModelProto.FromString(model.SerializeToString())
slimmed = onnxslim.slim(given)
inputs = [i.name for i in slimmed.graph.input]
print("slimmed inputs", inputs, "caller's model inputs after slim", [i.name for i in given.graph.input])
if "b" not in inputs:
    err = float(np.max(np.abs(run(slimmed, feeds) - expected)))
    print(f"BUG: the overridable default b was frozen and its graph input removed; fed b = -2, max abs err {err:.3g}")
    sys.exit(1)
print("ok")
