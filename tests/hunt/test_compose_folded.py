"""Compositions at nodes a neighbour made foldable (:func:`passcheck.hunt.compose.folded_by`): a neighbour that
turns a node's inputs into initializers (``vary:input-constant``) opens a site of every initializer rewrite, and
those took every composition place; the rewrites at the node a folding pass now computes are what it reaches."""

from __future__ import annotations

import random

import onnx
from onnx import TensorProto, helper

from passcheck.hunt import compose, variation


def _layernorm() -> onnx.ModelProto:
    node = helper.make_node("LayerNormalization", ["X", "Scale"], ["Y"], name="ln", axis=-1)
    graph = helper.make_graph(
        [node],
        "g",
        [
            helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3]),
            helper.make_tensor_value_info("Scale", TensorProto.FLOAT, [3]),
        ],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_constant_nodes_are_those_whose_every_input_is_a_constant():
    c = helper.make_node("Constant", [], ["c"], value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0]))
    nodes = [
        c,
        helper.make_node("Add", ["w", "c"], ["a"], name="folds"),
        helper.make_node("Neg", ["a"], ["b"], name="folds_too"),
        helper.make_node("Add", ["x", "b"], ["y"], name="reads_x"),
        helper.make_node("Add", ["d", "w"], ["z"], name="reads_a_default"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [1]),
            helper.make_tensor_value_info("d", TensorProto.FLOAT, [1]),
        ],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [1]),
            helper.make_tensor_value_info("z", TensorProto.FLOAT, [1]),
        ],
        [
            helper.make_tensor("w", TensorProto.FLOAT, [1], [2.0]),
            helper.make_tensor("d", TensorProto.FLOAT, [1], [3.0]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    assert compose.constant_nodes(model) == {"folds", "folds_too"}  # d is a graph input: a default, no constant


def test_a_frozen_nodes_rewrites_get_places_beside_the_initializer_rewrites_it_opens():
    base, vform = _layernorm(), "vary:input-constant@graph"
    neighbour = variation.build(base, vform, labelled=True)[0]  # compose's label space
    assert compose.folded_by(base, neighbour) >= {"ln", "Y"}
    for seed in range(5):
        fresh, touched = compose.compositions(base, vform, random.Random(seed))
        assert fresh, seed  # the initializer rewrites it opens still get places
        assert touched and all(t.rsplit("@", 1)[1] in ("ln", "Y") for t in touched), (seed, fresh, touched)
        carried: set[str] = set()
        compose.compositions(base, vform, random.Random(seed), carried=carried)
        assert carried == set(touched)
