"""onnxscript's optimizer turns two Flattens of one input into Reshapes, one reading a shape no node or initializer makes.

``z = Flatten<axis=2>(x)`` and ``w = Flatten<axis=2>(x)``, ``x: float[N, 2, 3]`` (``z``, ``w``: ``[F, 3]``), both graph outputs, opset 13, IR 8
(a valid model: IR.md lets any number of nodes read one value). ``onnxscript.optimizer.optimize`` writes
``Reshape(x, "x/shape_1")`` and ``Reshape(x, "x/shape")`` but keeps only the initializer ``x/shape``: the first Reshape
reads a value nothing produces, and onnx's checker rejects the result ("Nodes in a graph must be topologically
sorted, however input 'x/shape_1' ... is not output of any previous nodes"). With one Flatten the result is valid.
Exits 1 while the optimized model fails the checker.
"""

import sys

import onnx
import onnxscript
from onnx import TensorProto, helper
from onnxscript import optimizer

vi = helper.make_tensor_value_info
graph = helper.make_graph(
    [helper.make_node("Flatten", ["x"], ["z"], axis=2), helper.make_node("Flatten", ["x"], ["w"], axis=2)],
    "g",
    [vi("x", TensorProto.FLOAT, ["N", 2, 3])],
    [vi("z", TensorProto.FLOAT, ["F", 3]), vi("w", TensorProto.FLOAT, ["F", 3])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
optimized = optimizer.optimize(model)
print("onnxscript", onnxscript.__version__, "onnx", onnx.__version__)
print("nodes:", [(n.op_type, list(n.input)) for n in optimized.graph.node])
print("initializers:", [t.name for t in optimized.graph.initializer])
try:
    onnx.checker.check_model(optimized)
except onnx.checker.ValidationError as exc:
    print("BUG: the optimized model fails the checker:", str(exc).splitlines()[0])
    sys.exit(1)
print("ok: the optimized model is valid")
