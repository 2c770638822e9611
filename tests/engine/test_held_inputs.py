"""A form may hold a graph input of ``common`` as a constant (the onnx-node family's constant form);
a form that lacks an input and does not hold it is refused before anything runs."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import INPUT, Subject, evaluate
from passcheck.errors import PasscheckError

X = np.array([1.0, -2.0], np.float32)


def _model(fed: bool, held: bool = True):
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])] if fed else []
    inits = [numpy_helper.from_array(X, "x")] if not fed and held else []
    graph = helper.make_graph(
        [helper.make_node("Abs", ["x"], ["y"])],
        "g",
        inputs,
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _subject(other):
    return Subject("t/held", {"common": _model(True), "other": other}, [{}], feed_sets=[{"x": X}])


def test_a_form_holding_the_input_as_an_initializer_runs_beside_common():
    cells = evaluate(_subject(_model(False)), [INPUT])
    assert {(c.form, c.verdict) for c in cells} == {("common", "ok"), ("other", "ok")}


def test_a_form_lacking_an_input_it_does_not_hold_is_refused():
    with pytest.raises(PasscheckError, match="may be left out"):
        evaluate(_subject(_model(False, held=False)), [INPUT])


def test_a_graph_input_backed_by_the_forms_own_initializer_is_not_one_it_must_be_fed():
    """A form listing an initializer among its graph inputs too (IR.md: an initializer named like an input is
    that input's default) still has common's interface: the input is not counted as fed."""
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "w"], ["s"]), helper.make_node("Abs", ["s"], ["y"])],  # |x + 0|
        "g",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in ("x", "w")],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [numpy_helper.from_array(np.zeros(2, np.float32), "w")],
    )
    other = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    cells = evaluate(_subject(other), [INPUT])
    assert {(c.form, c.verdict) for c in cells} == {("common", "ok"), ("other", "ok")}
