"""onnxoptimizer 0.4.2, pass eliminate_duplicate_initializer (also in the default optimize()): a model holding a
uint4 initializer (TensorProto.UINT4 = 21, ai.onnx opset 21 / IR 10, e.g. a DequantizeLinear weight) makes the pass
raise "no supported data type: 21"; the same model with a uint8 weight is optimized. Exit 1 while the bug is
present."""

import sys

import numpy as np
import onnx
import onnxoptimizer
from onnx import TensorProto, helper

print("onnx", onnx.__version__, "onnxoptimizer", onnxoptimizer.__version__)


def model(elem):
    w = helper.make_tensor("w", elem, [2, 4], np.arange(8) % 16)
    graph = helper.make_graph(
        [helper.make_node("DequantizeLinear", ["w", "s"], ["d"]), helper.make_node("MatMul", ["x", "d"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])],
        initializer=[w, helper.make_tensor("s", TensorProto.FLOAT, [], [0.5])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    onnx.checker.check_model(m, full_check=True)  # valid
    return m


print("uint8:", [n.op_type for n in onnxoptimizer.optimize(model(TensorProto.UINT8), ["eliminate_duplicate_initializer"]).graph.node])
try:
    out = onnxoptimizer.optimize(model(TensorProto.UINT4), ["eliminate_duplicate_initializer"])
except Exception as exc:  # noqa: BLE001 - the pass's error surfaces as RuntimeError
    print("BUG: uint4:", str(exc).strip()[-80:])
    sys.exit(1)
print("uint4:", [n.op_type for n in out.graph.node])
