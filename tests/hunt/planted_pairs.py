"""A planted pass that folds an Unsqueeze for one spelling of its axes only, and a base case it folds, loaded with
--cases-from by the pair tests (tests only).

- ``planted:unsqueeze-nonneg``: ``Unsqueeze(x, axes)`` with x of static shape and ``axes`` a constant of
  non-negative elements becomes ``Reshape(x, shape)`` (the 1s inserted at the sorted axes: right), and is left
  alone when an axis is negative (Operators.md Unsqueeze: a negative axis counts from the back of the expanded
  output, the same axis). Right on every model; a missed fold on the negative spelling only, which only a
  comparison of the two spellings (the parity oracle) shows.

Base case ``vary-test/unsqueeze``: ``y = Relu(Unsqueeze(x, [1]))``, x ``[2, 3]``; its axes' ``int-negate``
neighbour is ``[-2]``, the same axis of the rank-3 output.
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:unsqueeze-nonneg"


def unsqueeze_nonneg(model):
    """Unsqueeze with a static input and constant non-negative axes → Reshape; a negative axis: left alone. An
    initializer that is also a graph input is a default a caller may override (IR.md §Graphs), no constant."""
    fed = {v.name for v in model.graph.input}
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer if t.name not in fed}
    dims = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim] for v in model.graph.input}
    for i, n in enumerate(model.graph.node):
        axes = inits.get(n.input[1]) if n.op_type == "Unsqueeze" and len(n.input) == 2 else None
        if axes is None or n.input[0] not in dims or (axes < 0).any() or 0 in dims[n.input[0]]:
            continue
        shape = list(dims[n.input[0]])
        for a in sorted(axes.reshape(-1).tolist()):
            shape.insert(a, 1)
        name = f"planted_shape_{i}"
        model.graph.initializer.append(numpy_helper.from_array(np.array(shape, np.int64), name))
        n.op_type, n.input[1] = "Reshape", name
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, unsqueeze_nonneg, doc="test pass: folds Unsqueeze of non-negative axes"))


def base(axes=(1,)):
    """``y = Relu(Unsqueeze(x, axes))``, x ``[2, 3]`` (opset 18: axes an input)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 1, 3] if list(axes) == [1] else [None] * 3)
    nodes = [
        helper.make_node("Unsqueeze", ["x", "axes"], ["u"], name="un"),
        helper.make_node("Relu", ["u"], ["y"], name="re"),
    ]
    inits = [numpy_helper.from_array(np.array(list(axes), np.int64), "axes")]
    graph = helper.make_graph(nodes, "unsq", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


FORMS = {"common": Form(base), "uncommon": Form(base, "the same model")}
register(Case(id="vary-test/unsqueeze", forms=FORMS, doc="y = Relu(Unsqueeze(x, [1]))", opset=18, passes=(PASS_ID,)))
