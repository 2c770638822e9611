"""M235: an exact product keeps the rounding bound (:mod:`passcheck.oracles.quant_steps`).

``a = K (a1 m2 + m1 a2 + a1 a2)`` needs a factor's magnitude only where the other one carries an error. A graph
input's magnitude is unknown (the feeds set it), so ``Mul(x, 1)`` ahead of the first QuantizeLinear used to make
every bound downstream unknown, and the QDQ Conv case's own one-step rounding (onnxruntime's
WeightBiasQuantization rounds the float bias to steps of ``x_scale · w_scale``, Operators.md QuantizeLinear) was a
``wrong-result`` on that form only (round 13i's leftover). Real onnxruntime runs on the library's case.
Planted break: the old rule (any unknown magnitude → None) fails both tests.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

import passcheck
from passcheck.cases import registry
from passcheck.engine import feeds_for
from passcheck.oracles import quant_steps

QDQ_CONV = "pattern-ort-qdq/conv"


def _mul_first_input(model: onnx.ModelProto, rounded: bool = False) -> onnx.ModelProto:
    """``model`` with its first graph input read through ``Mul(x, 1.0)``; with ``rounded`` the 1.0 is
    ``DequantizeLinear(int8 100, 0.01)`` (a weight rounded ahead of time: an error of half a step)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    x = out.graph.input[0].name
    for n in out.graph.node:
        n.input[:] = ["x_m" if i == x else i for i in n.input]
    first = [helper.make_node("Mul", [x, "one"], ["x_m"])]
    if rounded:
        out.graph.initializer.extend(
            [
                numpy_helper.from_array(np.array(100, np.int8), "q1"),
                numpy_helper.from_array(np.array(0.01, np.float32), "s1"),
            ]
        )
        first.insert(0, helper.make_node("DequantizeLinear", ["q1", "s1"], ["one"]))
    else:
        out.graph.initializer.append(numpy_helper.from_array(np.array(1.0, np.float32), "one"))
    nodes = [*first, *out.graph.node]
    del out.graph.node[:]
    out.graph.node.extend(nodes)
    return out


def _case():
    case = registry().get(QDQ_CONV)
    common = case.build("common")
    return common, feeds_for(common, case.id, case.bindings, feed_fn=case.feeds)


def test_an_exact_product_of_a_fed_value_keeps_the_bound_and_an_inexact_one_does_not():
    common, _ = _case()
    want = quant_steps.allowance(common, 1.0, False)
    assert want["y"] is not None and want["y"] > 0.05  # the output step and the Conv's share
    assert quant_steps.allowance(_mul_first_input(common), 1.0, False) == want
    # x times a rounded weight (an error with weights=True): x's unknown magnitude is needed, the bound unknown
    rounded = _mul_first_input(common, rounded=True)
    assert quant_steps.allowance(rounded, 1.0, True) == {"y": None}
    assert quant_steps.allowance(rounded, 1.0, False) == want  # the weight is the computation's own: exact


def test_the_bias_rounding_step_is_no_finding_on_a_form_multiplying_the_input_by_one():
    common, feeds = _case()
    form = _mul_first_input(common)
    so = ort.SessionOptions()
    runs = {}
    for level in (ort.GraphOptimizationLevel.ORT_DISABLE_ALL, ort.GraphOptimizationLevel.ORT_ENABLE_BASIC):
        so.graph_optimization_level = level
        s = ort.InferenceSession(form.SerializeToString(), so, providers=["CPUExecutionProvider"])
        runs[level] = [s.run(None, f)[0] for f in feeds]
    moved = [np.abs(a - b).max() for a, b in zip(*runs.values())]
    assert max(moved) > 0.04  # the crossing happens on these feeds: one output step (0.05)
    report = passcheck.check_model(common, ["ort:basic"], forms={"mul-one": form}, feeds=feeds, name="m235")
    cells = [c for c in report.cells if c.pass_id == "ort:basic"]
    assert {c.form for c in cells} == {"common", "mul-one"}
    assert not [f for c in cells for f in c.findings if f.oracle == "numeric"], [c.findings for c in cells]
