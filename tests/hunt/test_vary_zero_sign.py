"""Signed-zero twins (:mod:`passcheck.hunt.vary_zero_sign`): a node whose float attribute holds +0.0 computed again
with -0.0 (IEEE 754 §5.11: equal under ``==``, another value), judged with the real onnx-ir CSE pass and onnxruntime.

onnx-ir's ``CommonSubexpressionEliminationPass`` keys a ``FLOAT`` / ``FLOATS`` attribute by Python equality, so
``Constant(value_float=0.0)`` and ``Constant(value_float=-0.0)`` are one node to it: the twin's ``tanh(x / -0.0)``
(-1 for x > 0) becomes ``tanh(x / 0.0)`` (1), and the observer ``tanh(1 / c)`` of the -0.0 gives 1 for -1. The base,
which writes its zero once, gives no finding.
"""

from __future__ import annotations

import math
import random

import numpy as np
import onnx
import pytest
from onnx import AttributeProto, TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe, vary_zero_sign
from passcheck.hunt.probe import Setting
from tests.hunt.conftest import run_unoptimized

CSE = "onnx-ir:common-subexpression-elimination"
FORM = "vary:twin-signed-zero@zero=value_float"


def _base() -> onnx.ModelProto:
    """``y = Tanh(Div(x, Constant(value_float=0.0)))``: finite outputs whose sign is the zero's."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])
    nodes = [
        helper.make_node("Constant", [], ["c"], name="zero", value_float=0.0),
        helper.make_node("Constant", [], ["k"], name="one", value_float=1.0),
        helper.make_node("Div", ["x", "c"], ["q"], name="div"),
        helper.make_node("Add", ["q", "k"], ["s"], name="add"),
        helper.make_node("Tanh", ["s"], ["y"], name="tanh"),
    ]
    graph = helper.make_graph(nodes, "signed_zero", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)


def test_the_twin_writes_the_zero_negative_and_copies_what_reads_it():
    base = _base()
    assert FORM in variation.neighbours(base, random.Random(0))
    assert list(vary_zero_sign.candidates(base)) == [("twin-signed-zero", "zero=value_float")]  # 1.0 is no site
    twin, labels = variation.build(base, FORM)
    assert labels == ["zero"] and [o.name for o in twin.graph.output] == ["y", "y__zs", "c__sign", "c__zs__sign"]
    copies = twin.graph.node[5:9]
    assert [(n.op_type, list(n.input)) for n in copies] == [
        ("Constant", []),
        ("Div", ["x", "c__zs"]),
        ("Add", ["q__zs", "k"]),  # the other constant is shared
        ("Tanh", ["s__zs"]),
    ]
    observers = [(n.op_type, list(n.input)) for n in twin.graph.node[9:]]
    assert observers == [
        ("Reciprocal", ["c"]),
        ("Tanh", ["c__recip"]),
        ("Reciprocal", ["c__zs"]),
        ("Tanh", ["c__zs__recip"]),
    ]
    f = copies[0].attribute[0].f
    assert f == 0.0 and math.copysign(1.0, f) < 0
    assert twin.graph.node[0].attribute[0].f == 0.0 and math.copysign(1.0, twin.graph.node[0].attribute[0].f) > 0
    onnx.checker.check_model(twin, full_check=True)
    assert vary_zero_sign.added(base, "twin-signed-zero", "zero=value_float") == 3
    assert not vary_probe.interface_changed(base, twin, FORM)
    assert [o.name for o in base.graph.output] == ["y"]  # the base is never modified


@pytest.mark.parametrize(
    ("attr", "zeros"),
    [
        (helper.make_attribute("value_floats", [1.0, 0.0, -0.0]), [1]),
        (helper.make_attribute("value", numpy_helper.from_array(np.array([0.0, 2.0], np.float16))), [0]),
        (helper.make_attribute("alpha", -0.0), []),
        (helper.make_attribute("value", numpy_helper.from_array(np.array([0, 1], np.int64))), []),
    ],
)
def test_every_positive_zero_of_a_float_attribute_and_nothing_else_is_flipped(attr, zeros):
    out = vary_zero_sign.flipped(attr)
    if not zeros:
        assert out is None
        return
    vals = numpy_helper.to_array(out.t) if out.type == AttributeProto.TENSOR else np.array(out.floats)
    before = numpy_helper.to_array(attr.t) if attr.type == AttributeProto.TENSOR else np.array(attr.floats)
    assert np.array_equal(vals, before)  # the same values under ==
    assert [i for i in range(vals.size) if np.signbit(vals[i]) != np.signbit(before[i])] == zeros


def test_onnx_ir_cse_merging_the_two_zeros_is_a_wrong_result_on_the_twin_only(inproc_executor):
    import onnx_ir as ir
    from onnx_ir.passes.common import CommonSubexpressionEliminationPass

    feeds = {"x": np.array([1.0, 2.0, -3.0], np.float32)}
    model = ir.serde.deserialize_model(_base())
    CommonSubexpressionEliminationPass()(model)
    assert np.array_equal(run_unoptimized(ir.serde.serialize_model(model), feeds)[0], [1, 1, -1])  # the base: right
    twin = vary_probe.judge(Setting("vary-test/zero-sign"), _base(), FORM, CSE, inproc_executor)
    assert twin.status == "done", twin
    assert ("numeric", "wrong-result") in {(f.oracle, f.kind) for f in twin.findings}, twin.findings


def test_the_sign_observer_shows_the_merge_where_no_reader_tells_the_zeros_apart(inproc_executor):
    """``y = Add(x, Constant(value_float=0.0))``: ``x + 0.0`` and ``x + -0.0`` agree on every nonzero ``x``, so only
    the appended ``tanh(1 / c)`` outputs show that the pass made the two constants one."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])
    nodes = [
        helper.make_node("Constant", [], ["c"], name="zero", value_float=0.0),
        helper.make_node("Add", ["x", "c"], ["y"], name="add"),
    ]
    base = helper.make_model(
        helper.make_graph(nodes, "add_zero", [x], [y]), opset_imports=[helper.make_opsetid("", 19)], ir_version=9
    )
    out = vary_probe.judge(Setting("vary-test/zero-sign-add"), base, FORM, CSE, inproc_executor)
    assert out.status == "done", out
    assert ("numeric", "wrong-result") in {(f.oracle, f.kind) for f in out.findings}, out.findings
