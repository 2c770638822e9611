"""The ``shape-outrank`` neighbour (:mod:`passcheck.hunt.variation`): a constant operand of a multidirectionally
broadcasting reader given leading 1s up to one more than its reader's output rank, so the output gains a
leading 1 (Broadcasting.md: the shapes are aligned on the right and the result has the larger rank).

A planted pass that turns ``Max(x, c)`` with a one-element ``c`` into ``Clip(x, c)`` (Clip's bound is a scalar
and Clip does not broadcast) is right while ``c`` has no more dims than ``x``; only this neighbour shows it:
the value-kinds keep the shape, ``shape-leading-one`` of a scalar gives ``[1]``, no rank change.
"""

from __future__ import annotations

import random

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation
from tests.hunt.planted_neighbours import found_by

PASS_ID = "planted:max-as-clip"


def _max_as_clip(model: onnx.ModelProto) -> onnx.ModelProto:
    """``Max(x, c)``, ``c`` a one-element initializer → ``Clip(x, scalar c)``, its shape not read (an initializer
    that is also a graph input is an overridable default, left alone: IR.md §Graphs)."""
    fed = {v.name for v in model.graph.input}
    inits = {t.name: t for t in model.graph.initializer if t.name not in fed}
    for n in model.graph.node:
        c = inits.get(n.input[1]) if n.op_type == "Max" and len(n.input) == 2 else None
        if c is not None and numpy_helper.to_array(c).size == 1:
            lo = f"{n.input[1]}_scalar"
            model.graph.initializer.append(numpy_helper.from_array(numpy_helper.to_array(c).reshape(()), lo))
            n.op_type = "Clip"
            n.input[1] = lo
    return model


def _base() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    c = numpy_helper.from_array(np.array(0.25, np.float32), "c")
    graph = helper.make_graph([helper.make_node("Max", ["x", "c"], ["y"], name="max")], "max", [x], [y], [c])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def test_the_constant_gets_one_dim_more_than_the_output_and_the_annotation_follows():
    out, labels = variation.build(_base(), "vary:shape-outrank@c")
    assert labels == ["c"]
    c = next(t for t in out.graph.initializer if t.name == "c")
    assert list(c.dims) == [1, 1, 1] and numpy_helper.to_array(c).ravel().tolist() == [0.25]
    assert [d.dim_value for d in out.graph.output[0].type.tensor_type.shape.dim] == [1, 2, 4]
    onnx.checker.check_model(out, full_check=True)


def test_not_where_a_reader_broadcasts_unidirectionally():
    # PRelu's slope broadcasts to X only (unidirectional): a slope of higher rank than X is no valid model
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    s = numpy_helper.from_array(np.array([0.1], np.float32), "s")
    graph = helper.make_graph([helper.make_node("PRelu", ["x", "s"], ["y"], name="p")], "p", [x], [y], [s])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    forms = variation.neighbours(model, random.Random(0))
    assert "vary:shape-leading-one@s" in forms and not [f for f in forms if "outrank" in f]


def test_a_pass_that_takes_a_one_element_operand_for_a_scalar_is_found_only_by_outrank(ex):
    found = found_by(_base(), "vary-test/max", PASS_ID, _max_as_clip, ex)
    # the twins and the fanout copies meet the planted pass's other defect: its per-match initializer has one name,
    # two matches repeat it
    assert [k for k in found if variation.family(k) not in ("twin", "fanout")] == ["vary:shape-outrank@c"], found
