"""A planted pass that acts on a pattern without checking the constant value it assumes, and a base case
whose constant has that value, loaded with --cases-from by the variation tests (tests only).

- ``planted:half-mul``: a Mul whose second operand is a one-element float initializer is taken for the
  ``x * 0.5`` of an erf-Gelu and becomes ``x / 2`` (a new initializer), whatever the constant holds: right
  on the base (the constant is 0.5), wrong on a neighbour whose constant is another value.

Base case ``vary-test/half``: ``y = Tanh(x * 0.5) + b``; its uncommon form spells the 0.5 first
(``0.5 * x``), which the pass does not match.
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:half-mul"


def _half_mul(model):
    """x * c (c a one-element float initializer) → x / 2, c not read."""
    inits = {t.name: t for t in model.graph.initializer}
    for n in model.graph.node:
        c = inits.get(n.input[1]) if n.op_type == "Mul" and len(n.input) == 2 else None
        if c is not None and c.data_type == TensorProto.FLOAT and numpy_helper.to_array(c).size == 1:
            two = f"{n.name or n.output[0]}_two"
            model.graph.initializer.append(numpy_helper.from_array(np.array(2.0, np.float32), two))
            n.op_type = "Div"
            n.input[1] = two
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, _half_mul, doc="test pass: x * c becomes x / 2 without reading c"))


def _half(swapped: bool):
    def build():
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
        inits = [
            numpy_helper.from_array(np.array(0.5, np.float32), "half"),
            numpy_helper.from_array(np.array([0.1, -0.2, 0.3, 0.4], np.float32), "b"),
        ]
        mul = helper.make_node("Mul", ["half", "x"] if swapped else ["x", "half"], ["m"], name="mul")
        nodes = [
            mul,
            helper.make_node("Tanh", ["m"], ["t"], name="tanh"),
            helper.make_node("Add", ["t", "b"], ["y"], name="add"),
        ]
        graph = helper.make_graph(nodes, "half", [x], [y], inits)
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])

    return build


register(
    Case(
        id="vary-test/half",
        forms={"common": Form(_half(False)), "constant-first": Form(_half(True), "the 0.5 as the first operand")},
        doc="y = Tanh(x * 0.5) + b",
        opset=17,
        passes=(PASS_ID,),
    )
)
