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


def fold_no_attrs(model):
    """Fold every node of initializer inputs, its attributes dropped (see module docs)."""
    from onnx.reference import ReferenceEvaluator

    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    keep = []
    for n in model.graph.node:
        if n.input and all(v in inits for v in n.input if v):
            bare = helper.make_node(n.op_type, list(n.input), list(n.output), domain=n.domain)
            graph = helper.make_graph(
                [bare],
                "fold",
                [],
                [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in n.output],
                [numpy_helper.from_array(inits[v], v) for v in dict.fromkeys(n.input) if v],
            )
            got = ReferenceEvaluator(helper.make_model(graph, opset_imports=model.opset_import)).run(None, {})
            for name, value in zip(n.output, got, strict=True):
                inits[name] = value
                model.graph.initializer.append(numpy_helper.from_array(np.asarray(value), name))
        else:
            keep.append(n)
    del model.graph.node[:]
    model.graph.node.extend(keep)
    return model


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
