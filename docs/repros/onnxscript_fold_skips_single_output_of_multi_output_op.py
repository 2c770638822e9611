"""onnxscript 0.7.2's constant folder (`optimizer/_constant_folding.py`, `FoldConstantsPass.process_node`) leaves a
LayerNormalization (or GRU / RNN) node whose inputs are all constants and which declares one output unfolded: it
evaluates the node with onnx's reference implementation (`onnx.reference.ops.load_op(...).eval`), which returns every
output the op can have (LayerNormalization: Y, Mean, InvStdDev; GRU / RNN: Y, Y_h), and folds only when a single
value comes back, logging "Skipping constant folding for op LayerNormalization with multiple outputs." although the
node has one. The trailing outputs are optional (Operators.md LayerNormalization-17, GRU-14, RNN-14; IR.md §Nodes:
an optional output may be left off), and the folder folds other one-output nodes of constants (a MaxPool here, whose
optional Indices output is likewise left off). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxscript
from onnx import helper, numpy_helper


def model(op: str, inputs: dict, shape: list, **attrs) -> onnx.ModelProto:
    inits = [numpy_helper.from_array(v, n) for n, v in inputs.items()]
    node = helper.make_node(op, list(inputs), ["Y"], **attrs)
    graph = helper.make_graph(
        [node], "g", [], [helper.make_tensor_value_info("Y", onnx.TensorProto.FLOAT, shape)], initializer=inits
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) / 10
cases = {
    "LayerNormalization": model("LayerNormalization", {"X": x[0], "S": np.ones(4, np.float32)}, [2, 3, 4]),
    "RNN": model(
        "RNN",
        {"X": x[0], "W": np.ones((1, 3, 4), np.float32), "R": np.ones((1, 3, 3), np.float32)},
        [2, 1, 3, 3],
        hidden_size=3,
    ),
    "MaxPool (control)": model("MaxPool", {"X": x}, [1, 2, 2, 3], kernel_shape=[2, 2]),
}
left = []
for name, m in cases.items():
    onnx.checker.check_model(m, full_check=True)
    out = onnxscript.optimizer.optimize(m)
    ops = [n.op_type for n in out.graph.node]
    print(f"{name}: nodes after optimize: {ops}")
    if ops and not name.endswith("(control)"):
        left.append(name)
for name in left:
    print(f"BUG: a one-output {name} of constants is not folded")
sys.exit(1 if left else 0)
