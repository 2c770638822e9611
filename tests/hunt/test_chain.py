"""Chained neighbours (round 10a, M96; :mod:`passcheck.hunt.chain`): a neighbour of a neighbour, ``vary:<kind>@<site>
+<kind>@<site>``, its second link at what the first changed, judged against the first neighbour. docs/recall.md R83
needs ``attr-alpha`` on a Gemm that ``qdq-wrap`` placed in a QDQ group (onnxruntime before 1.30 scaled the int32
bias by ``alpha`` in QGemm). A planted fusion with that arithmetic is found on the chain only; onnxruntime's own
QGemm fusion is what makes the QDQ neighbour a first link (``wrote``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.hunt import chain, variation, vary_probe
from passcheck.hunt.probe import Setting
from passcheck.hunt.space import Base, Item
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass
from passcheck.signature import rewrite_kind
from tests.hunt.conftest import qdq_gemm

CASE = "chain-test/gemm"
PLANTED = "planted:qdq-bias-times-alpha"
EVERY = "planted:qdq-bias-doubled"
WRAP = "vary:qdq-wrap@gm"
ALPHA = "vary:attr-alpha@gm=2"
CHAINED = "vary:qdq-wrap@gm+attr-alpha@gm=2"
#: The second links the planted fusion is wrong on (``alpha`` ≠ 1 by more than a rounding): × 2 and 0 (M359).
ALPHA_LINKS = {CHAINED, "vary:qdq-wrap@gm+attr-alpha@gm=0"}


def _gemm():
    """``y = Gemm(a, B, C)`` (:func:`tests.hunt.conftest.qdq_gemm`: C in ±2)."""
    return qdq_gemm()


def _bias_times_alpha(model):
    """A planted QGemm fusion's arithmetic (onnxruntime before 1.30, microsoft/onnxruntime#28131): the int32 bias of
    a Gemm whose three inputs are DequantizeLinear outputs is read at its scale times ``alpha``."""
    g = model.graph
    dq = {n.output[0]: n for n in g.node if n.op_type == "DequantizeLinear"}
    inits = {t.name: t for t in g.initializer}
    for n in g.node:
        alpha = next((helper.get_attribute_value(a) for a in n.attribute if a.name == "alpha"), 1.0)
        if n.op_type == "Gemm" and len(n.input) > 2 and all(v in dq for v in n.input[:3]) and alpha != 1.0:
            scale = dq[n.input[2]].input[1]
            name = scale + "__alpha"
            g.initializer.append(numpy_helper.from_array(numpy_helper.to_array(inits[scale]) * np.float32(alpha), name))
            dq[n.input[2]].input[1] = name
    return model


def _bias_doubled(model):
    """A planted fusion wrong on every QDQ Gemm, whatever its ``alpha``: the int32 bias read at twice its scale."""
    g = model.graph
    dq = {n.output[0]: n for n in g.node if n.op_type == "DequantizeLinear"}
    inits = {t.name: t for t in g.initializer}
    for n in g.node:
        if n.op_type == "Gemm" and len(n.input) > 2 and all(v in dq for v in n.input[:3]):
            scale = dq[n.input[2]].input[1]
            g.initializer.append(numpy_helper.from_array(numpy_helper.to_array(inits[scale]) * 2, scale + "__2"))
            dq[n.input[2]].input[1] = scale + "__2"
    return model


if EVERY not in known_pass_ids():
    register_pass(FunctionAdapter(EVERY, _bias_doubled, doc="test pass: int32 bias at twice its scale"))
if PLANTED not in known_pass_ids():
    register_pass(FunctionAdapter(PLANTED, _bias_times_alpha, doc="test pass: int32 bias at its scale times alpha"))
register(Case(id=CASE, forms={"common": Form(_gemm), "uncommon": Form(_gemm, "the same model")}, doc="Gemm", opset=13))


@pytest.fixture(scope="module")
def ex(inproc_executor):
    return inproc_executor


def test_a_chained_form_names_both_links():
    assert variation.is_chained(CHAINED) and variation.is_variation(CHAINED)
    assert not variation.is_chained(WRAP) and variation.links(WRAP) is None
    assert variation.links(CHAINED) == (WRAP, ALPHA)
    assert variation.chain(WRAP, ALPHA) == CHAINED
    assert variation.kind(CHAINED) == "vary:qdq-wrap+attr-alpha" == rewrite_kind(CHAINED)
    assert variation.labels(CHAINED) == ["gm"]
    assert variation.family(CHAINED) == variation.CHAINED
    assert variation.site_ops(_gemm(), CHAINED) == {"Gemm"}
    assert variation.equivalent(_gemm(), CHAINED) is None


def test_the_chain_builds_the_second_link_on_the_first_neighbour():
    base = _gemm()
    built, labels = variation.build(base, CHAINED)
    gemm = next(n for n in built.graph.node if n.op_type == "Gemm")
    assert [helper.get_attribute_value(a) for a in gemm.attribute if a.name == "alpha"] == [pytest.approx(2.0)]
    assert all(v.endswith("_d") or "__" in v for v in gemm.input)  # every input dequantized
    assert labels == ["gm"] and len(base.graph.node) == 1  # the base untouched


def test_second_links_are_at_the_node_the_first_changed_of_another_model_only_family():
    for seed in range(3):
        got = chain.seconds(_gemm(), WRAP, random.Random(seed))
        assert len(got) == chain.PER_FIRST and ALPHA_LINKS & set(got), got
        assert all(
            variation.links(f)[1].startswith("vary:attr-") and f.endswith(("=0", "=1", "=1.01", "=2")) for f in got
        ), got
    assert chain.seconds(_gemm(), "vary:elem-float16@graph", random.Random(0)) == []  # a run condition of its own
    assert not chain.model_only(CHAINED)  # depth 2


def test_a_fusion_scaling_the_bias_by_alpha_is_found_on_the_chain_only(ex):
    setting = Setting(CASE)
    for one in (WRAP, ALPHA):  # either change alone: the planted fusion computes what the model does
        out = vary_probe.judge(setting, _gemm(), one, PLANTED, ex)
        assert out.status == "done" and not out.findings, (one, out)
    out = vary_probe.judge(setting, _gemm(), CHAINED, PLANTED, ex)
    assert out.status == "done", out
    assert ("numeric", "wrong-result") in {(f.oracle, f.kind) for f in out.findings}, out.findings
    assert vary_probe.invalid(setting, _gemm(), variation.build(_gemm(), CHAINED)[0], ex, CHAINED) is None


def test_a_chain_is_judged_against_its_first_neighbour(ex):
    """What the first link alone shows is its finding, not the chain's: counted once, under ``vary:qdq-wrap``."""
    first = vary_probe.judge(Setting(CASE), _gemm(), WRAP, EVERY, ex)
    assert ("numeric", "wrong-result") in {(f.oracle, f.kind) for f in first.findings}, first
    out = vary_probe.judge(Setting(CASE), _gemm(), CHAINED, EVERY, ex)
    assert out.status == "done" and not out.findings, out


def test_onnxruntime_writes_qgemm_on_the_qdq_neighbour_only(ex):
    out = vary_probe.judge(Setting(CASE), _gemm(), WRAP, "ort:extended", ex)
    assert out.status == "done" and "com.microsoft::QGemm" in out.wrote, out
    plain = vary_probe.judge(Setting(CASE), _gemm(), ALPHA, "ort:extended", ex)
    assert plain.status == "done" and not plain.wrote, plain


def _scheduler():
    from passcheck.cases import registry
    from passcheck.hunt.scheduler import Scheduler

    case = registry().get(CASE)
    pool = [Base(case, f) for f in case.forms]
    return Scheduler(pool, [PLANTED], seed=1, variations=True, compose=True), pool[0]


def _chain_step(k: int = 0) -> int:
    from passcheck.hunt.scheduler import CHAIN_EVERY, COMPOSE_EVERY

    return COMPOSE_EVERY * (CHAIN_EVERY * k + CHAIN_EVERY - 1) + COMPOSE_EVERY - 3


def test_a_neighbour_the_pass_wrote_on_is_a_first_link_and_a_chain_is_none():
    s, base = _scheduler()
    assert WRAP in base.variations(1)
    s.mark(Item(base.id, WRAP, PLANTED), wrote=False)
    s._only = "compose"
    assert s._chain_item(PLANTED, _chain_step()) is None  # it moved nothing: no chain
    s.mark(Item(base.id, WRAP, PLANTED), wrote=True)
    assert s._chain_item(PLANTED, _chain_step() - 8) is None  # another composition step keeps its tiers
    drawn = []
    for k in range(chain.PER_FIRST):
        item = s._chain_item(PLANTED, _chain_step(k))
        assert item is not None and variation.links(item.form)[0] == WRAP, item
        drawn.append(item.form)
        s.mark(item, wrote=True, moved=True)
    # four distinct second links, each an attribute of the Gemm the first link wrapped (which four: the seed's draw
    # among the node's attribute neighbours, M359's zeros included)
    assert len(set(drawn)) == chain.PER_FIRST and all(variation.links(f)[1].startswith("vary:attr-") for f in drawn)
    assert s.wrote_on[PLANTED] == [(base.id, WRAP)] and not s.moved_on.get(PLANTED)  # depth 2
    assert s._chain_item(PLANTED, _chain_step(chain.PER_FIRST)) is None  # every chain of it drawn
    assert variation.family(CHAINED) not in s.families  # not counted in the families' shares
