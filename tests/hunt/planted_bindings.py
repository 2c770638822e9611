"""A planted shape inference that writes the broadcast of two dims as the first operand's, and a base case
whose bindings never show it, loaded with --cases-from by the binding-variant tests (tests only).

- ``planted:first-dim``: onnx shape inference, then every Add output annotated with its first operand's
  shape. Broadcasting ``N`` with ``M`` gives ``N`` only when ``M == N`` or ``M == 1`` (Broadcasting.md,
  "Multidirectional Broadcasting"): right under the case's bindings (every symbol 2, then 3), wrong when
  ``N`` is bound to 1 and ``M`` is not.

Base case ``varbind-test/add``: ``y = Relu(x + b)``, x ``[N, 4]``, b ``[M, 4]``; its uncommon form adds
``b + x``, on which the pass writes ``M``: right under the same bindings, wrong when ``M`` is 1.
"""

import onnx
from onnx import TensorProto, helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:first-dim"


def _first_dim(model):
    """onnx shape inference, then each Add's output annotated as its first input."""
    model = onnx.shape_inference.infer_shapes(model)
    g = model.graph
    known = {v.name: v for v in [*g.input, *g.value_info, *g.output]}
    for n in g.node:
        if n.op_type == "Add" and n.input[0] in known:
            out = known.get(n.output[0])
            if out is None:
                out = g.value_info.add()
                out.name = n.output[0]
            out.type.CopyFrom(known[n.input[0]].type)
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, _first_dim, doc="test pass: an Add's output shape is its first operand's"))


def _add(swapped: bool):
    def build():
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
        b = helper.make_tensor_value_info("b", TensorProto.FLOAT, ["M", 4])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 4])
        nodes = [
            helper.make_node("Add", ["b", "x"] if swapped else ["x", "b"], ["s"], name="add"),
            helper.make_node("Relu", ["s"], ["y"], name="relu"),
        ]
        graph = helper.make_graph(nodes, "add", [x, b], [y])
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])

    return build


register(
    Case(
        id="varbind-test/add",
        forms={"common": Form(_add(False)), "swapped": Form(_add(True), "the operands of Add swapped")},
        doc="y = Relu(x + b), x [N, 4], b [M, 4]",
        opset=17,
        passes=(PASS_ID,),
    )
)
