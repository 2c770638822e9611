"""onnx-ir 1.1.0 CommonSubexpressionEliminationPass (passes/common/common_subexpression_elimination.py) keys a
node's FLOAT / FLOATS attributes by Python equality, under which 0.0 == -0.0 (and both hash alike); IEEE 754 §5.11
makes them two values, and onnx.proto stores an attribute's float as an IEEE binary32. Two nodes that differ only in
the sign of a zero attribute become one:
- `Constant(value_float=0.0)` and `Constant(value_float=-0.0)`, each divided into: `tanh(x / -0.0)` (-1 for x > 0)
  becomes `tanh(x / 0.0)` (1), by the pass itself;
- `Elu(x, alpha=0.0)` and `Elu(x, alpha=-0.0)` (Operators.md Elu-6: `alpha * (exp(x) - 1)` for x < 0, a zero whose
  sign is alpha's opposite): onnxscript 0.7.2's optimize() runs the pass after lifting constants, and
  `tanh(1 / Elu(x, -0.0))` (1 for x < 0) becomes -1.
A tensor attribute (`Constant(value=...)`) is keyed by its bytes and stays apart. onnxruntime with every optimization
off gives the IEEE values. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx_ir as ir
import onnxruntime as ort
from onnx import TensorProto, helper
from onnx_ir.passes.common import CommonSubexpressionEliminationPass
from onnxscript import optimizer


def run(model, feeds):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)


def model(nodes):
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("y1", "y2")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])], outs)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
    onnx.checker.check_model(m, full_check=True)  # the input is valid
    return m


constants = model([
    helper.make_node("Constant", [], ["a"], value_float=0.0),
    helper.make_node("Constant", [], ["b"], value_float=-0.0),
    helper.make_node("Div", ["x", "a"], ["qa"]),
    helper.make_node("Div", ["x", "b"], ["qb"]),
    helper.make_node("Tanh", ["qa"], ["y1"]),
    helper.make_node("Tanh", ["qb"], ["y2"]),
])
elus = model([
    helper.make_node("Elu", ["x"], ["a"], alpha=0.0),
    helper.make_node("Elu", ["x"], ["b"], alpha=-0.0),
    helper.make_node("Reciprocal", ["a"], ["ra"]),
    helper.make_node("Reciprocal", ["b"], ["rb"]),
    helper.make_node("Tanh", ["ra"], ["y1"]),
    helper.make_node("Tanh", ["rb"], ["y2"]),
])
feeds = {"x": np.array([-1.0, -2.0, 3.0], np.float32)}
bad = False

m = ir.serde.deserialize_model(onnx.ModelProto.FromString(constants.SerializeToString()))
CommonSubexpressionEliminationPass()(m)
want, got = run(constants, feeds), run(ir.serde.serialize_model(m), feeds)
if not all(np.array_equal(w, g) for w, g in zip(want, got)):
    print("BUG (CommonSubexpressionEliminationPass, Constant value_float ±0):", [g.tolist() for g in got], "vs", [w.tolist() for w in want])
    bad = True

want, got = run(elus, feeds), run(optimizer.optimize(onnx.ModelProto.FromString(elus.SerializeToString())), feeds)
if not all(np.array_equal(w, g) for w, g in zip(want, got)):
    print("BUG (onnxscript optimize, Elu alpha ±0):", [g.tolist() for g in got], "vs", [w.tolist() for w in want])
    bad = True
sys.exit(1 if bad else print("ok"))
