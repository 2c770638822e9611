"""A pass whose data propagation stops at any node an empty int64 value enters, loaded with --cases-from
(``test_empty_values_hunt.py``), and an Expand-from-shape case it is hunted on.

``planted:data-prop-stops-at-empty`` is onnx shape inference with data propagation, except where some node of
the main graph reads a value onnx types as int64 of shape ``[0]``: there it is inference without data
propagation, so an Expand reading a computed shape gets unknown dims. onnx 1.16.2 / 1.17.0 lose or reject the
value where an empty part reaches a Concat through any propagator (docs/recall.md R21, R11, round 5d).
"""

import onnx
from onnx import TensorProto, helper

from passcheck.cases import Case, Form, register, registry
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:data-prop-stops-at-empty"
CASE_ID = "empty-values-test/expand-to-shape"


def _reads_empty(model: onnx.ModelProto) -> bool:
    g = onnx.shape_inference.infer_shapes(model).graph
    empty = {t.name for t in g.initializer if list(t.dims) == [0]}
    for v in g.value_info:
        t = v.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
        if t.elem_type == TensorProto.INT64 and t.HasField("shape") and dims == [0]:
            empty.add(v.name)
    return any(i in empty for n in g.node for i in n.input)


def stops_at_empty(model: onnx.ModelProto) -> onnx.ModelProto:
    return onnx.shape_inference.infer_shapes(model, data_prop=not _reads_empty(model))


def expand_to_shape(prefix: str = "") -> onnx.ModelProto:
    """``y = Expand(b, Concat(Shape(x, 0, 1), [4, 6]))`` on ``x: [N, 5]``, ``b: [6]``, ``y`` declared rank 3."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 5])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [6])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 3)
    tail = helper.make_tensor("tail", TensorProto.INT64, [2], [4, 6])
    nodes = [
        helper.make_node("Shape", ["x"], ["n"], name=prefix + "n", start=0, end=1),
        helper.make_node("Concat", ["n", "tail"], ["to"], name=prefix + "to", axis=0),
        helper.make_node("Expand", ["b", "to"], ["y"], name=prefix + "expand"),
    ]
    graph = helper.make_graph(nodes, "g", [x, b], [y], [tail])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, stops_at_empty, doc="test pass: data propagation stops at an empty value"))
if not any(c.id == CASE_ID for c in registry().select([])):
    register(
        Case(
            id=CASE_ID,
            forms={"common": Form(expand_to_shape), "renamed": Form(lambda: expand_to_shape("n_"), "nodes renamed")},
            doc="Expand to a computed shape",
            opset=18,
        )
    )
