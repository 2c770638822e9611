"""A planted pass that is wrong on int32 constants only, and an Add/Mul base, loaded with --cases-from by the
elem variation tests (tests only).

- ``planted:int-const-plus-one``: every int32 initializer + 1; float bases are untouched, so only an
  ``elem-int32`` neighbour shows it.

Base case ``vary-int/add-mul``: ``y = (x + c) * x`` (c = 2.0); its uncommon form spells ``c + x``.
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:int-const-plus-one"


def _int_const_plus_one(model):
    for t in model.graph.initializer:
        if t.data_type == TensorProto.INT32:
            t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t) + np.int32(1), t.name))
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, _int_const_plus_one, doc="test pass: int32 initializers + 1"))


def add_mul(swapped: bool = False):
    def build():
        add = helper.make_node("Add", ["c", "x"] if swapped else ["x", "c"], ["a"], name="add")
        graph = helper.make_graph(
            [add, helper.make_node("Mul", ["a", "x"], ["y"], name="mul")],
            "add_mul",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
            [numpy_helper.from_array(np.array(2.0, np.float32), "c")],
        )
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])

    return build


register(
    Case(
        id="vary-int/add-mul",
        forms={"common": Form(add_mul()), "constant-first": Form(add_mul(True), "c + x")},
        doc="y = (x + c) * x",
        opset=17,
        passes=(PASS_ID,),
    )
)
