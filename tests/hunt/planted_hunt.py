"""Planted passes that each mis-handle one uncommon spelling, and base cases offering the common
spelling, loaded with --cases-from by the hunt tests (tests only).

- ``planted:commuted``: an Add / Mul whose first operand is an initializer becomes an Identity of
  its second operand (it assumes the constant comes second);
- ``planted:implicit-broadcast``: an Add / Sub / Mul / Div whose operands differ in rank becomes a Sub
  (it assumes explicitly broadcast operands);
- ``planted:keepdims0``: a ReduceMean with ``keepdims=0`` gets ``keepdims=1`` (its Unsqueeze then adds a dim);
- ``planted:negative-axes``: a negative ``axis`` attribute becomes 0.

Base cases: ``hunt-test/layernorm`` (a decomposed LayerNorm with explicit broadcasts: keepdims=1,
operands of equal rank, an Unsqueeze before the scale, constants second) and ``hunt-test/softmax``.
"""

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass


def _commuted(model):
    inits = {t.name for t in model.graph.initializer}
    for n in model.graph.node:
        if n.op_type in ("Add", "Mul") and n.input[0] in inits and n.input[1] not in inits:
            n.op_type, x = "Identity", n.input[1]
            del n.input[:]
            n.input.append(x)
    return model


def _implicit_broadcast(model):
    inferred = onnx.shape_inference.infer_shapes(model)
    ranks = {t.name: len(t.dims) for t in model.graph.initializer}
    for v in [*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output]:
        if v.type.tensor_type.HasField("shape"):
            ranks[v.name] = len(v.type.tensor_type.shape.dim)
    for n in model.graph.node:
        if n.op_type in ("Add", "Sub", "Mul", "Div") and len({ranks.get(i) for i in n.input}) > 1:
            n.op_type = "Sub"
    return model


def _keepdims0(model):
    for n in model.graph.node:
        if n.op_type == "ReduceMean":
            for a in n.attribute:
                if a.name == "keepdims" and a.i == 0:
                    a.i = 1
    return model


def _negative_axes(model):
    for n in model.graph.node:
        for a in n.attribute:
            if a.name == "axis" and a.i < 0:
                a.i = 0
    return model


for _id, _fn in (
    ("planted:commuted", _commuted),
    ("planted:implicit-broadcast", _implicit_broadcast),
    ("planted:keepdims0", _keepdims0),
    ("planted:negative-axes", _negative_axes),
):
    if _id not in known_pass_ids():
        register_pass(FunctionAdapter(_id, _fn, doc=f"test pass: {(_fn.__doc__ or _id)}"))


def _layernorm():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    inits = [
        numpy_helper.from_array(np.array([1.0, 2.0, 0.5, -1.0], np.float32), "gamma"),
        numpy_helper.from_array(np.array([[0.1, -0.2, 0.3, 0.0]], np.float32), "beta"),
        numpy_helper.from_array(np.array([[1e-5]], np.float32), "eps"),
        numpy_helper.from_array(np.array([0], np.int64), "axes0"),
    ]
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["mean"], axes=[1], keepdims=1),
        helper.make_node("Sub", ["x", "mean"], ["d"]),
        helper.make_node("Mul", ["d", "d"], ["sq"]),
        helper.make_node("ReduceMean", ["sq"], ["var"], axes=[1], keepdims=1),
        helper.make_node("Add", ["var", "eps"], ["ve"]),
        helper.make_node("Sqrt", ["ve"], ["s"]),
        helper.make_node("Div", ["d", "s"], ["n"]),
        helper.make_node("Unsqueeze", ["gamma", "axes0"], ["gamma2"]),
        helper.make_node("Mul", ["n", "gamma2"], ["scaled"]),
        helper.make_node("Add", ["scaled", "beta"], ["y"]),
    ]
    return helper.make_model(
        helper.make_graph(nodes, "layernorm", [x], [y], initializer=inits),
        opset_imports=[helper.make_opsetid("", 17)],
        ir_version=8,
    )


def _softmax():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Softmax", ["r"], ["y"], axis=1)], "softmax", [x], [y]
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _copy(build):
    def again():
        m = build()
        return m

    return again


register(
    Case(
        id="hunt-test/layernorm",
        forms={"common": Form(_layernorm), "same": Form(_copy(_layernorm), "the same model")},
        doc="A decomposed LayerNorm over the last axis spelled with explicit broadcasts (tests only).",
        opset=17,
    )
)
register(
    Case(
        id="hunt-test/softmax",
        forms={"common": Form(_softmax), "same": Form(_copy(_softmax), "the same model")},
        doc="Relu then Softmax over axis 1 (tests only).",
        opset=17,
    )
)
