"""A planted folding pass that computes a node of constant inputs without its attributes, and a base case for it,
loaded by the frozen-input tests (tests only).

- ``planted:fold-no-attrs``: every main-graph node whose inputs are all initializers is replaced by an initializer
  holding its output, computed by onnx's reference evaluator on a copy of the node with its attributes dropped
  (each then at its schema default). Right where the node states no attribute; wrong on ``Softmax(axis=0)``
  (Softmax-13's default axis is -1). A node that reads a fed graph input is left alone.

Base case ``frozen-test/softmax``: ``y = Relu(Softmax(x, axis=0))``, x ``float[2, 3]`` (opset 13).
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:fold-no-attrs"


def _fold(model, node_of, written):
    """Replace every main-graph node whose inputs are all initializers by initializers holding its outputs, computed by
    onnx's reference evaluator on ``node_of(node)`` and stored as ``written(array)``."""
    from onnx.reference import ReferenceEvaluator

    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    keep = []
    for n in model.graph.node:
        if n.input and all(v in inits for v in n.input if v):
            graph = helper.make_graph(
                [node_of(n)],
                "fold",
                [],
                [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in n.output],
                [numpy_helper.from_array(inits[v], v) for v in dict.fromkeys(n.input) if v],
            )
            got = ReferenceEvaluator(helper.make_model(graph, opset_imports=model.opset_import)).run(None, {})
            for name, value in zip(n.output, got, strict=True):
                inits[name] = written(np.asarray(value))
                model.graph.initializer.append(numpy_helper.from_array(inits[name], name))
        else:
            keep.append(n)
    del model.graph.node[:]
    model.graph.node.extend(keep)
    return model


def fold_no_attrs(model):
    """Fold every node of initializer inputs, its attributes dropped (see module docs)."""
    return _fold(
        model, lambda n: helper.make_node(n.op_type, list(n.input), list(n.output), domain=n.domain), lambda v: v
    )


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, fold_no_attrs, doc="test pass: folds constant nodes, attributes dropped"))


def base():
    """``y = Relu(Softmax(x, axis=0))``, x ``float[2, 3]`` (opset 13)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    nodes = [
        helper.make_node("Softmax", ["x"], ["s"], name="sm", axis=0),
        helper.make_node("Relu", ["s"], ["y"], name="re"),
    ]
    return helper.make_model(helper.make_graph(nodes, "sm", [x], [y]), opset_imports=[helper.make_opsetid("", 13)])


FORMS = {"common": Form(base), "uncommon": Form(base, "the same model")}
register(Case(id="frozen-test/softmax", forms=FORMS, doc="y = Relu(Softmax(x, axis=0))", opset=13))


TEXT_PASS_ID = "planted:fold-text-width"


def _fixed_width(value):
    if value.dtype != object or not value.size:
        return value
    return value.astype(f"S{max(1, len(value.flat[0]))}").astype(object)


def fold_text_width(model):
    """Fold every node of initializer inputs like :func:`fold_no_attrs` (attributes kept), writing a string result as
    fixed-width bytes of its first element's width: ``["a", "bc"]`` becomes ``["a", "b"]``."""
    return _fold(model, lambda n: n, _fixed_width)


if TEXT_PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(TEXT_PASS_ID, fold_text_width, doc="test pass: folds strings at a fixed width"))


def text_base():
    """``y = Unsqueeze(Identity(x), [0])``, x ``string[2, 3]`` (opset 13)."""
    x = helper.make_tensor_value_info("x", TensorProto.STRING, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.STRING, [1, 2, 3])
    axes = numpy_helper.from_array(np.array([0], np.int64), "axes")
    nodes = [
        helper.make_node("Identity", ["x"], ["t"], name="id"),
        helper.make_node("Unsqueeze", ["t", "axes"], ["y"], name="un"),
    ]
    graph = helper.make_graph(nodes, "text", [x], [y], [axes])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


TEXT_FORMS = {"common": Form(text_base), "uncommon": Form(text_base, "the same model")}
register(Case(id="frozen-test/text", forms=TEXT_FORMS, doc="y = Unsqueeze(Identity(x), [0]), x string", opset=13))
