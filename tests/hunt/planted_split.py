"""A planted pass wrong only where a QuantizeLinear and the DequantizeLinear reading its output have scales of
different element types, and an opset-19 double Q/DQ base sharing one scale initializer; loaded with
--cases-from by the split elem tests (tests only).

- ``planted:qdq-scale-types``: for each Q → DQ pair whose two scales differ in element type, the DQ's scale is
  doubled (a pass reading both scales as one type); any other model is left as it is, so a neighbour that moves
  a whole type-constraint group (both scales together) never shows it.

Base case ``vary-split/double-qdq``: ``y = -DQ(Q(DQ(Q(x, s, z), s, z), s, z), s, z)`` at opset 19
(QuantizeLinear-19 ``T1``: x and y_scale; DequantizeLinear-19 ``T2``: x_scale and y), ``s`` one float
initializer read by all four nodes; its uncommon form spells the Neg as ``0 - d``.
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:qdq-scale-types"


def _double_mixed_dq_scales(model):
    g = model.graph
    types = {t.name: t.data_type for t in g.initializer}
    for n in g.node:
        if n.op_type == "Constant":
            types[n.output[0]] = n.attribute[0].t.data_type
    writer = {o: n for n in g.node for o in n.output}
    for n in list(g.node):
        q = writer.get(n.input[0]) if n.op_type == "DequantizeLinear" else None
        if q is None or q.op_type != "QuantizeLinear" or types.get(q.input[1]) == types.get(n.input[1]):
            continue
        src = next((t for t in g.initializer if t.name == n.input[1]), None)
        if src is not None:
            g.initializer.append(numpy_helper.from_array(numpy_helper.to_array(src) * 2, f"{src.name}_x2_{n.name}"))
            n.input[1] = g.initializer[-1].name
    return model


if PASS_ID not in known_pass_ids():
    register_pass(
        FunctionAdapter(PASS_ID, _double_mixed_dq_scales, doc="test pass: a mixed-type Q -> DQ pair's DQ scale doubled")
    )


def double_qdq(subtract: bool = False):
    def build():
        nodes = [
            helper.make_node("QuantizeLinear", ["x", "s", "z"], ["a"], name="q1"),
            helper.make_node("DequantizeLinear", ["a", "s", "z"], ["b"], name="dq1"),
            helper.make_node("QuantizeLinear", ["b", "s", "z"], ["c"], name="q2"),
            helper.make_node("DequantizeLinear", ["c", "s", "z"], ["d"], name="dq2"),
            helper.make_node("Sub", ["zero", "d"], ["y"], name="neg")
            if subtract
            else helper.make_node("Neg", ["d"], ["y"], name="neg"),
        ]
        inits = [
            numpy_helper.from_array(np.array(0.04, np.float32), "s"),
            numpy_helper.from_array(np.array(128, np.uint8), "z"),
        ]
        if subtract:
            inits.append(numpy_helper.from_array(np.array(0.0, np.float32), "zero"))
        graph = helper.make_graph(
            nodes,
            "double_qdq",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 8])],
            inits,
        )
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)

    return build


register(
    Case(
        id="vary-split/double-qdq",
        forms={"common": Form(double_qdq()), "subtract": Form(double_qdq(True), "0 - d")},
        doc="y = -DQ(Q(DQ(Q(x, s, z), s, z), s, z), s, z), one scale initializer",
        opset=19,
        bindings=({"N": 1}, {"N": 2}),
        passes=(PASS_ID,),
    )
)
