"""A pass whose data propagation gives up on a Concat that has an empty first part, loaded with --cases-from
(``test_concat_empty_hunt.py``), and a Reshape-from-shape case it is hunted on.

``planted:data-prop-empty-first`` is onnx shape inference with data propagation, except where a Concat's first
input is statically of length 0: there it is inference without data propagation, so a Reshape reading that
Concat gets unknown dims. onnx 1.16.2 and 1.17.0 lose the value that way, taking the first part's value length
for the rank (onnx/onnx#6570, fixed in 1.18; docs/recall.md R21).
"""

import onnx
from onnx import TensorProto, helper

from passcheck.cases import Case, Form, register, registry
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:data-prop-empty-first"
CASE_ID = "concat-empty-test/reshape-heads"


def _empty_first(model: onnx.ModelProto) -> bool:
    inferred = onnx.shape_inference.infer_shapes(model)
    lengths = {t.name: list(t.dims) for t in inferred.graph.initializer}
    for v in inferred.graph.value_info:
        lengths.setdefault(
            v.name, [d.dim_value if d.HasField("dim_value") else None for d in v.type.tensor_type.shape.dim]
        )
    return any(n.op_type == "Concat" and lengths.get(n.input[0]) == [0] for n in inferred.graph.node)


def data_prop_empty_first(model: onnx.ModelProto) -> onnx.ModelProto:
    return onnx.shape_inference.infer_shapes(model, data_prop=not _empty_first(model))


def reshape_heads(prefix: str = "") -> onnx.ModelProto:
    """``y = Reshape(x, Concat(Shape(x, 0, 2), [2, 3]))`` on ``x: [N, T, 6]``, ``y`` declared rank 4."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "T", 6])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 4)
    heads = helper.make_tensor("heads", TensorProto.INT64, [2], [2, 3])
    nodes = [
        helper.make_node("Shape", ["x"], ["lead"], name=prefix + "lead", start=0, end=2),
        helper.make_node("Concat", ["lead", "heads"], ["target"], name=prefix + "target", axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"], name=prefix + "reshape"),
    ]
    graph = helper.make_graph(nodes, "g", [x], [y], [heads])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


if PASS_ID not in known_pass_ids():
    register_pass(
        FunctionAdapter(PASS_ID, data_prop_empty_first, doc="test pass: data propagation lost on an empty first part")
    )
if not any(c.id == CASE_ID for c in registry().select([])):
    register(
        Case(
            id=CASE_ID,
            forms={"common": Form(reshape_heads), "renamed": Form(lambda: reshape_heads("n_"), "nodes renamed")},
            doc="Reshape to a computed shape",
            opset=17,
        )
    )
