"""onnxsim 0.8.1 simplify() on LSTM-7 with sequence_lens written as "" (omitted), its optional outputs Y_h, Y_c
written as "", constant B / initial_h / initial_c / P, opset 7 / IR 3: the simplified model fails the checker
("sequence_lens typestr: T1, has unsupported type: tensor(float)"). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxsim
from onnx import helper, numpy_helper

F = onnx.TensorProto.FLOAT
consts = {"B": (1, 16), "initial_h": (1, 3, 2), "initial_c": (1, 3, 2), "P": (1, 6)}
graph = helper.make_graph(
    [helper.make_node("LSTM", ["X", "W", "R", "B", "", "initial_h", "initial_c", "P"], ["Y", "", ""], hidden_size=2)],
    "g",
    [helper.make_tensor_value_info(n, F, s) for n, s in {"X": (2, 3, 4), "W": (1, 8, 4), "R": (1, 8, 2)}.items()]
    + [helper.make_tensor_value_info(n, F, s) for n, s in consts.items()],  # IR 3: initializers are graph inputs
    [helper.make_tensor_value_info("Y", F, [2, 1, 3, 2])],
    [numpy_helper.from_array(np.zeros(s, np.float32), n) for n, s in consts.items()],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 7)], ir_version=3)
onnx.checker.check_model(model, full_check=True)
out, ok = onnxsim.simplify(model)
node = next(n for n in out.graph.node if n.op_type == "LSTM")
print("LSTM inputs after:", list(node.input))
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001 - checker or its shape inference
    print("BUG:", str(exc).splitlines()[0][:300])
    sys.exit(1)
print("ok")
