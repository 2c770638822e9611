"""Planted passes that collapse inverse-looking pairs without asking whether the pair is the identity, and a
base case for them, loaded with --cases-from by the pair-variation tests (tests only).

- ``planted:cast-cast``: ``Cast(Cast(x, to=A), to=T)`` → ``Cast(x, to=T)`` whatever A is: right where A
  represents every value of x's type (the ``cast-round-trip`` forms), wrong through a narrowing A (the
  ``vary:cast-narrow`` neighbours).
- ``planted:transpose-transpose``: ``Transpose(Transpose(x, p), q)`` → x whatever p and q are: right only
  where q = p⁻¹.

Base case ``pair-test/tanh``: ``y = Tanh(x) * w + b`` on float[2, 3, 4] (no Cast, no Transpose);
its uncommon form spells ``w * t``.
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

CAST_ID = "planted:cast-cast"
TRANSPOSE_ID = "planted:transpose-transpose"


def _collapse(op: str, keep_outer: bool):
    def rewrite(model):
        g = model.graph
        producer = {o: n for n in g.node for o in n.output}
        for n in g.node:
            inner = producer.get(n.input[0]) if n.op_type == op and n.input else None
            if inner is None or inner.op_type != op:
                continue
            if keep_outer:  # the outer Cast reads the inner one's input
                n.input[0] = inner.input[0]
            else:  # the outer Transpose becomes Identity of the inner one's input
                n.op_type, n.input[0] = "Identity", inner.input[0]
                del n.attribute[:]
        return model

    return rewrite


for _id, _fn, _doc in (
    (CAST_ID, _collapse("Cast", True), "test pass: Cast(Cast(x, A), T) → Cast(x, T) for any A"),
    (TRANSPOSE_ID, _collapse("Transpose", False), "test pass: Transpose(Transpose(x, p), q) → x for any p, q"),
):
    if _id not in known_pass_ids():
        register_pass(FunctionAdapter(_id, _fn, doc=_doc))


def _tanh(swapped: bool = False):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])
    inits = [
        numpy_helper.from_array(np.array([0.5, -1.5, 2.0, 0.25], np.float32), "w"),
        numpy_helper.from_array(np.array([0.1, -0.2, 0.3, 0.4], np.float32), "b"),
    ]
    nodes = [
        helper.make_node("Tanh", ["x"], ["t"], name="tanh"),
        helper.make_node("Mul", ["w", "t"] if swapped else ["t", "w"], ["m"], name="mul"),
        helper.make_node("Add", ["m", "b"], ["y"], name="add"),
    ]
    return helper.make_model(
        helper.make_graph(nodes, "tanh", [x], [y], inits), opset_imports=[helper.make_opsetid("", 18)]
    )


register(
    Case(
        id="pair-test/tanh",
        forms={"common": Form(_tanh), "weight-first": Form(lambda: _tanh(True), "w as the first operand")},
        doc="y = Tanh(x) * w + b",
        opset=18,
        passes=(CAST_ID, TRANSPOSE_ID),
    )
)


REGROUP_ID = "planted:transpose-reshape"


def _drop_regroup(model):
    """``Reshape(Transpose(x), s)`` → ``Identity(x)`` whatever the Transpose moved: right only where it moved
    no element (the shapes alone say nothing: a Reshape back to x's shape keeps x's shape, not its order)."""
    producer = {o: n for n in model.graph.node for o in n.output}
    for n in model.graph.node:
        inner = producer.get(n.input[0]) if n.op_type == "Reshape" else None
        if inner is not None and inner.op_type == "Transpose":
            n.op_type, n.input[:] = "Identity", [inner.input[0]]
            del n.attribute[:]
    return model


if REGROUP_ID not in known_pass_ids():
    register_pass(FunctionAdapter(REGROUP_ID, _drop_regroup, doc="test pass: Reshape(Transpose(x), s) → x"))


def _matmul_bn():
    """``y = Neg(BatchNormalization(MatMul(x: float[N, 3], w: [3, 4])))`` (opset 18): the rank-2 value ``m``
    between the MatMul and the BatchNormalization that onnxruntime's MatmulBNFusion folds."""
    rng = np.random.default_rng(0)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    inits = [numpy_helper.from_array(rng.standard_normal((3, 4)).astype(np.float32), "w")]
    for name, lo in (("s", 0.5), ("b", -1.0), ("mean", -1.0), ("var", 0.5)):
        inits.append(numpy_helper.from_array((rng.random(4) + lo).astype(np.float32), name))
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="matmul"),
        helper.make_node("BatchNormalization", ["m", "s", "b", "mean", "var"], ["n"], name="bn", epsilon=1e-5),
        helper.make_node("Neg", ["n"], ["y"], name="neg"),
    ]
    return helper.make_model(
        helper.make_graph(nodes, "matmul_bn", [x], [y], inits), opset_imports=[helper.make_opsetid("", 18)]
    )
