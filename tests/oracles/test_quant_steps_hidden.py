"""The rounding bound of a QDQ group that a local function, an If branch or a sequence holds (M328, M329, round
17e): read as the same group's in the main graph. onnxruntime's ``WeightBiasQuantization`` (``ORT_ENABLE_BASIC``)
quantizes the float weight of ``vary:qdq-float-params``' Gemm group and moves outputs by one step, in every
spelling it reaches; before, the bound was known for the plain group only, and each spelling that hid the group
was reported as a wrong result. Real onnxruntime sessions, the library's ``optional-input/gemm-c``."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.engine import synthesize
from passcheck.hunt import variation
from passcheck.mutations import forms as hforms
from passcheck.oracles import quant_steps

HIDDEN = (
    "node-as-local-function@n0_Gemm__o0_Q",
    "nested-local-function@n0_Gemm__q0_Q>n0_Gemm__q0_DQ>n0_Gemm>n0_Gemm__o0_Q",
    "node-in-if-const@n0_Gemm__o0_Q",
    "node-in-if-opaque@n0_Gemm__q0_Q",
    "through-sequence@n0_Gemm__o0_q",  # SequenceConstruct, then SequenceAt: the quantized output held and handed back
    "through-sequence@a",
)


@pytest.fixture(scope="module")
def plain():
    base = registry().get("optional-input/gemm-c").build("common")
    built = variation.build(base, "vary:qdq-float-params@n0_Gemm", labelled=True)
    assert built is not None
    return built[0]


def _run(model, level, feeds):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    s = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return s.run(None, feeds)[0]


@pytest.mark.parametrize("rewrite", HIDDEN)
def test_a_hidden_group_has_the_plain_group_s_bound_and_the_optimizer_stays_within_it(plain, rewrite):
    built = hforms.build(plain, rewrite)
    assert built is not None
    hidden = built[0]
    assert hidden.functions or {n.op_type for n in hidden.graph.node} & {"If", "SequenceAt"}
    want = quant_steps.allowance(plain, 1.0, False)
    assert want["y"] is not None and want["y"] > 0
    assert quant_steps.combined(hidden, None, pass_rounds=False) == want
    moved = 0.0
    for seed in range(6):  # seeds 1, 4, 5 move 1, 2, 5 of 9 elements by one output step (1/16 here)
        feeds = synthesize(hidden, {"N": 3}, seed, default_size=2)
        none = _run(hidden, ort.GraphOptimizationLevel.ORT_DISABLE_ALL, feeds)
        basic = _run(hidden, ort.GraphOptimizationLevel.ORT_ENABLE_BASIC, feeds)
        moved = max(moved, float(np.abs(none - basic).max()))
        assert np.abs(none - basic).max() <= want["y"]
    assert moved > 0  # WeightBiasQuantization acted: a bound of 0 or None would report it


def test_an_if_output_takes_the_larger_branch_bound_and_unknown_wins(plain):
    from onnx import helper

    hidden = hforms.build(plain, "node-in-if-const@n0_Gemm__o0_Q")[0]
    node = next(n for n in hidden.graph.node if n.op_type == "If")
    then = next(a for a in node.attribute if a.name == "then_branch")
    other = next(a for a in node.attribute if a.name == "else_branch")
    assert then.g.node  # the group's output QuantizeLinear is the then branch's
    # an else branch that ends in an op the bound cannot read (Sin): unknown, whichever branch cond picks
    inner = other.g.output[0].name
    other.g.node.append(helper.make_node("Sin", [inner], [inner + "_s"]))
    other.g.output[0].name = inner + "_s"
    assert quant_steps.combined(hidden, None, pass_rounds=False) == {"y": None}
