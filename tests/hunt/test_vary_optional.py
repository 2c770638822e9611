"""Optional-input neighbours (:mod:`passcheck.hunt.vary_optional`): an omitted optional input given a value
other than its default, judged with real passes and real onnxruntime runs.

A planted pass that drops a Pad's ``constant_value`` (taking it for the default 0) is right on a base that omits
it and on every spelling that writes the default out; of the base's neighbours only ``opt-fill`` shows it.
"""

from __future__ import annotations

import random

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe
from passcheck.hunt.probe import Setting
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

PASS_ID = "planted:pad-value-dropped"


def _drop_pad_value(model: onnx.ModelProto) -> onnx.ModelProto:
    """Every Pad's ``constant_value`` input emptied (read as the default 0, whatever it holds)."""
    for n in model.graph.node:
        if n.op_type == "Pad" and len(n.input) > 2 and n.input[2]:
            n.input[2] = ""
            while n.input and not n.input[-1]:
                n.input.pop()
    return model


def _base(ir_version: int = 8) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])
    w = helper.make_tensor_value_info("w", TensorProto.FLOAT, [2, 5])
    pads = numpy_helper.from_array(np.array([0, 1, 0, 1], np.int64), "pads")
    nodes = [
        helper.make_node("Pad", ["x", "pads"], ["p"], name="pad", mode="constant"),
        helper.make_node("Mul", ["p", "w"], ["y"], name="scale"),
    ]
    graph = helper.make_graph(nodes, "pad", [x, w], [y], [pads])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=ir_version)


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


@pytest.fixture
def planted():
    register_pass(FunctionAdapter(PASS_ID, _drop_pad_value))
    yield PASS_ID
    unregister_pass(PASS_ID)


def test_the_omitted_optional_input_typed_like_a_present_one_is_the_site():
    forms = variation.neighbours(_base(), random.Random(0))
    # Pad's inputs: data (T), pads (int64), constant_value (T, optional), axes (Tind, optional): only
    # constant_value has its type bound by a present input; axes' Tind binds no present input
    assert [f for f in forms if variation.family(f) == "opt"] == ["vary:opt-fill@pad=2"]
    filled, labels = variation.build(_base(), "vary:opt-fill@pad=2")
    assert labels == ["pad"]
    pad = filled.graph.node[0]
    value = next(t for t in filled.graph.initializer if t.name == pad.input[2])
    assert value.data_type == TensorProto.FLOAT and numpy_helper.to_array(value).shape == ()
    assert numpy_helper.to_array(value) == 1
    onnx.checker.check_model(filled, full_check=True)
    assert list(_base().graph.node[0].input) == ["x", "pads"]  # the base is never modified


def test_below_ir_4_the_value_is_a_constant_node():
    filled, _ = variation.build(_base(ir_version=3), "vary:opt-fill@pad=2")
    assert not [t for t in filled.graph.initializer if t.name.startswith("pad_opt")]
    assert filled.graph.node[0].op_type == "Constant" and filled.graph.node[1].input[2] == "pad_opt2"


def test_a_pass_that_takes_an_optional_input_for_its_default_is_found_only_by_opt_fill(ex, planted):
    base = _base()
    forms = variation.neighbours(base, random.Random(0))
    assert "vary:opt-fill@pad=2" in forms
    found = {}
    for form in forms:
        out = vary_probe.judge(Setting("vary-test/pad"), base, form, planted, ex)
        assert out.status in ("done", vary_probe.INVALID, "not-applicable"), (form, out)
        if out.status == "done" and out.findings:
            found[form] = {(f.oracle, f.kind) for f in out.findings}
    assert found == {"vary:opt-fill@pad=2": {("numeric", "wrong-result")}}, found


def test_the_same_pass_reading_the_value_gives_nothing_on_the_neighbour(ex):
    register_pass(FunctionAdapter("planted:pad-kept", lambda m: m))
    try:
        out = vary_probe.judge(Setting("vary-test/pad"), _base(), "vary:opt-fill@pad=2", "planted:pad-kept", ex)
    finally:
        unregister_pass("planted:pad-kept")
    assert out.status == "done" and not out.findings, out
