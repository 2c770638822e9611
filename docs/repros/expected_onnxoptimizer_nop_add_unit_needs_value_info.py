"""onnxoptimizer 0.4.2 optimize (its default eliminate_nop_with_unit, onnxoptimizer/passes/eliminate_nop_with_unit.cc).

s = Add(Relu(x), zero), x: float[N, 8]. The pass removes an Add whose constant operand is all zeros when that
constant broadcasts to the other operand (isABroadcastToB: every dim of the constant is 1 or equal), so a zero of
shape [] , [1] or [1, 1] all qualify. It reads the other operand's dims from the graph's value_info: with the
scalar zero the Add goes, with [1] or [1, 1] it stays unless shape inference ran first (then it goes).
Judged expected (passes needing shapes skip without them, onnxsim/onnxsim#153); kept as the evidence. Exits 1 while a zero of shape [1] or [1, 1] is kept
on the model as given (prints the same after onnx shape inference for comparison).
"""

import sys

import numpy as np
import onnx
import onnxoptimizer
from onnx import TensorProto, helper, numpy_helper


def model(shape) -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Add", ["r", "zero"], ["s"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
        [helper.make_tensor_value_info("s", TensorProto.FLOAT, ["N", 8])],
        [numpy_helper.from_array(np.zeros(shape, np.float32), "zero")],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m, full_check=True)
    return m


bad = 0
for shape in [(), (1,), (1, 1)]:
    plain = [n.op_type for n in onnxoptimizer.optimize(model(shape)).graph.node]
    inferred = [n.op_type for n in onnxoptimizer.optimize(onnx.shape_inference.infer_shapes(model(shape))).graph.node]
    print(f"zero of shape {list(shape)}: {plain}; after onnx shape inference: {inferred}")
    bad += "Add" in plain
sys.exit(1 if bad else 0)
