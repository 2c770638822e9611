"""The model of ``hunt-test/divmul`` (tests/hunt/planted_guide.py), built without registering anything:
eight element-wise ops on x: [2, 4] (float), then ``Div(·, c)`` and ``Mul(·, c)``, c = [4.0]."""

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def model():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    chain = ["Relu", "Neg", "Abs", "Sigmoid", "Tanh", "Neg", "Softplus", "Abs"]
    nodes, prev = [], "x"
    for i, op in enumerate(chain):
        nodes.append(helper.make_node(op, [prev], [f"v{i}"]))
        prev = f"v{i}"
    nodes += [helper.make_node("Div", [prev, "c"], ["t"]), helper.make_node("Mul", ["t", "c"], ["y"])]
    c = numpy_helper.from_array(np.array([4.0], np.float32), "c")
    return helper.make_model(
        helper.make_graph(nodes, "divmul", [x], [y], initializer=[c]),
        opset_imports=[helper.make_opsetid("", 17)],
        ir_version=8,
    )
