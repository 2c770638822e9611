"""onnxruntime 1.32.0's transformer optimizer (onnxruntime/transformers/onnx_model.py, OnnxModel.remove_unused_constant,
called by BertOnnxModel.optimize for every model type built on it) removes every Constant node whose output no node
reads, without asking whether the output is a graph output: a model output computed by a Constant (main graph), or an
If branch returning a Constant, loses its producer. The checker rejects the result ("Graph output 'c' is not an output
of any node in graph") and onnxruntime refuses it. Both inputs are valid and onnxruntime runs them.
Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

T = onnx.TensorProto.FLOAT
two = helper.make_tensor("two_value", T, [], [2.0])
main = helper.make_graph(  # y = Relu(x), c = Constant 2: both graph outputs
    [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Constant", [], ["c"], value=two)],
    "main",
    [helper.make_tensor_value_info("x", T, [2, 4])],
    [helper.make_tensor_value_info("y", T, [2, 4]), helper.make_tensor_value_info("c", T, [])],
)
then = helper.make_graph(
    [helper.make_node("Constant", [], ["c_then"], value=two)],
    "then",
    [],
    [helper.make_tensor_value_info("c_then", T, [])],
)
other = helper.make_graph(
    [helper.make_node("ReduceMax", ["x"], ["c_else"], keepdims=0)],
    "else",
    [],
    [helper.make_tensor_value_info("c_else", T, [])],
)
branch = helper.make_graph(  # y = If(t){Constant 2}{ReduceMax(x)} * x
    [
        helper.make_node("If", ["t"], ["s"], then_branch=then, else_branch=other),
        helper.make_node("Mul", ["x", "s"], ["y"]),
    ],
    "branch",
    [helper.make_tensor_value_info("x", T, [2, 4])],
    [helper.make_tensor_value_info("y", T, [2, 4])],
    [numpy_helper.from_array(np.array(True), "t")],
)
x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)
bad = []
for graph in (main, branch):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model, full_check=True)
    ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    out = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0).model
    try:
        onnx.checker.check_model(out, full_check=True)
        ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
        print(graph.name, "ok")
    except Exception as exc:  # noqa: BLE001
        bad.append(f"{graph.name}: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
if bad:
    print("BUG:", *bad, sep="\n  ")
    sys.exit(1)
print("ok")
