"""A planted pass that rebuilds a QuantizeLinear → DequantizeLinear pair from the DequantizeLinear's inputs, and a
base case for it, loaded with --cases-from by the composition tests (tests only).

- ``planted:qdq-zp-from-dq``: where a DequantizeLinear omits its zero point and reads a QuantizeLinear that states
  one, the QuantizeLinear's zero point is dropped too (the pair "agrees" with the DequantizeLinear). Right where
  that zero point is uint8 0 (QuantizeLinear: an omitted ``y_zero_point`` is uint8 0, Operators.md); on int8 data
  the QuantizeLinear then writes uint8 and every negative element saturates to 0. Onnxruntime's
  QDQPropagationTransformer rebuilt a moved pair this way (docs/recall.md R16).

Base case ``compose-test/qdq``: ``y = Neg(DequantizeLinear(QuantizeLinear(x, s, z), s, z))``, x float ``[N, 4]``,
``s = 0.05``, ``z`` int8 3: no DequantizeLinear omits its zero point (3 is not the default), so neither the pass
nor ``optional-input-default-omitted`` acts on it; ``vary:int-zero@z`` makes ``z`` int8 0, where the rewrite
then omits the DequantizeLinear's zero point.
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:qdq-zp-from-dq"


def zp_from_dq(model):
    """Each QuantizeLinear read by a DequantizeLinear without a zero point loses its own zero point."""
    g = model.graph
    made_by = {o: n for n in g.node for o in n.output}
    for n in g.node:
        q = made_by.get(n.input[0]) if n.op_type == "DequantizeLinear" else None
        if len(n.input) == 2 and q is not None and q.op_type == "QuantizeLinear" and len(q.input) == 3:
            del q.input[2]
            keep = [v for v in g.value_info if v.name != q.output[0]]
            del g.value_info[:]
            g.value_info.extend(keep)
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, zp_from_dq, doc="test pass: a Q/DQ pair rebuilt from the DQ's inputs"))


def base():
    """``y = Neg(DequantizeLinear(QuantizeLinear(x, s, z), s, z))``, z int8 3 (opset 13)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], name="quant"),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"], name="dequant"),
        helper.make_node("Neg", ["d"], ["y"], name="neg"),
    ]
    inits = [
        numpy_helper.from_array(np.array(0.05, np.float32), "s"),
        numpy_helper.from_array(np.array(3, np.int8), "z"),
    ]
    graph = helper.make_graph(nodes, "qdq", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


FORMS = {"common": Form(base), "uncommon": Form(base, "the same model")}
register(Case(id="compose-test/qdq", forms=FORMS, doc="y = Neg(DQ(Q(x, s, z int8 3), s, z))", opset=13))
