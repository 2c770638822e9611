"""A cut keeps only tensors as initializers: a constant sequence becomes a typed graph input.

Round 12e (M160): the ``ort:basic`` hunt (seed 33) died in its shrinker with ``AttributeError: 'list' object has no
attribute 'shape'``: :func:`passcheck.reduce.cut.constant_values` handed :func:`cut` the reference evaluator's list
for a ``SequenceConstruct`` of initializers, and ``numpy_helper.from_array`` cannot write a list as a TensorProto
(IR.md §Graphs: an initializer is a tensor).
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.reduce.cut import constant_values, cut, key, value_types


def _model() -> onnx.ModelProto:
    a = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "a")
    b = numpy_helper.from_array(np.ones((2, 3), np.float32), "b")
    nodes = [
        helper.make_node("SequenceConstruct", ["a", "b"], ["s"]),
        helper.make_node("ConcatFromSequence", ["s"], ["c"], axis=0),
        helper.make_node("Add", ["c", "x"], ["y"]),
        helper.make_node("Mul", ["a", "a"], ["z"]),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 3])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 3]),
            helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3]),
        ],
        initializer=[a, b],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def test_constant_values_holds_tensors_only():
    consts = constant_values(_model())
    assert set(consts) == {"c", "z"}
    assert consts["c"].shape == (4, 3) and consts["z"].dtype == np.float32


def test_a_cut_below_a_constant_sequence_reads_it_as_a_typed_graph_input():
    m = _model()
    types, consts = value_types(m), constant_values(m)
    out = cut(m, {key(m.graph.node[1]), key(m.graph.node[2])}, types, consts)
    assert out is not None
    inputs = {v.name: v.type.WhichOneof("value") for v in out.graph.input}
    assert inputs == {"s": "sequence_type", "x": "tensor_type"}
    assert not out.graph.initializer
    onnx.checker.check_model(out, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(out, strict_mode=True)
    assert {o.name for o in inferred.graph.output} == {"y"}
