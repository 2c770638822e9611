"""Chains whose first link declares the inputs (round 11g, M140/M141; :mod:`passcheck.hunt.chain`): a dim declared 1
is stretched by a multidirectional broadcast to the other operand's size, 0 included (Broadcasting.md), so a constant
beside a symbolic ``N`` that could hold no element only once the input declares a 1 is reached by
``vary:input-rank-up@x+shape-empty@c``, judged on the first link's feeds. A planted fusion that takes a numerator
whose elements are all 1 for the 1 of ``Mul(a, Div(1, b)) → Div(a, b)`` (vacuously true of an empty one, as
onnxruntime's DivMulFusion read the first element of an empty constant before 1.32: docs/recall.md R116) is found on
the chain with real onnxruntime runs, and on neither link alone."""

from __future__ import annotations

import random

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.hunt import chain, variation, vary_probe
from passcheck.hunt.probe import Setting
from passcheck.hunt.space import Base, Item
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

CASE = "chain-declared-test/div-mul"
PLANTED = "planted:all-ones-numerator"
RANK = "vary:input-rank-up@x"
EMPTY = "vary:shape-empty@c"
CHAINED = "vary:input-rank-up@x+shape-empty@c"


def _div_mul():
    """``y = Mul(x, Div(c, Exp(x)))``, x ``float[N, 8]`` fed, c ``float[1]`` = 1 read by the Div only."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 8])
    nodes = [
        helper.make_node("Exp", ["x"], ["e"], name="ex"),
        helper.make_node("Div", ["c", "e"], ["d"], name="dv"),
        helper.make_node("Mul", ["x", "d"], ["y"], name="ml"),
    ]
    graph = helper.make_graph(nodes, "g", [x], [y], [numpy_helper.from_array(np.ones(1, np.float32), "c")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _all_ones_numerator(model):
    """A planted DivMulFusion: ``Mul(a, Div(c, b))`` with an initializer ``c`` whose elements are all 1 becomes
    ``Div(a, b)``; ``np.all`` of no element is True, so an empty ``c`` (which empties the output) is taken for 1."""
    g = model.graph
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    divs = {n.output[0]: n for n in g.node if n.op_type == "Div" and n.input[0] in inits}
    for n in list(g.node):
        if n.op_type == "Mul" and n.input[1] in divs and np.all(inits[divs[n.input[1]].input[0]] == 1):
            g.node.insert(
                list(g.node).index(n), helper.make_node("Div", [n.input[0], divs[n.input[1]].input[1]], n.output)
            )
            g.node.remove(n)
    return model


def _own_feeds(binding, seed):
    """The case's own feed: x ``[N, 8]`` at the binding's N."""
    return {"x": np.random.default_rng(seed).uniform(-1, 1, (binding.get("N", 2), 8)).astype(np.float32)}


if PLANTED not in known_pass_ids():
    register_pass(FunctionAdapter(PLANTED, _all_ones_numerator, doc="test pass: an empty numerator taken for 1"))
register(
    Case(id=CASE, forms={"common": Form(_div_mul), "uncommon": Form(_div_mul, "the same model")}, doc="Div", opset=17)
)

SETTING = Setting(CASE, bindings=({"N": 2}, {"N": 3}), feeds=_own_feeds)


@pytest.fixture(scope="module")
def ex(inproc_executor):
    return inproc_executor


def test_a_declared_first_link_opens_the_empty_site():
    base = _div_mul()
    assert EMPTY not in variation.offered(base)  # beside a symbolic N a 0 does not broadcast
    assert chain.declares(RANK) and not chain.model_only(RANK) and chain.first_link(RANK)
    assert not chain.declares(CHAINED) and not chain.first_link(CHAINED)  # depth 2
    got = chain.seconds(base, RANK, random.Random(0))
    assert CHAINED in got, got
    assert all(variation.links(f)[1] not in variation.offered(base) for f in got), got  # only what it opened
    built, _ = variation.build(base, CHAINED)
    c = next(t for t in built.graph.initializer if t.name == "c")
    assert list(c.dims) == [0, 1, 1]


def test_an_empty_numerator_taken_for_one_is_found_on_the_chain_only(ex):
    for one in (RANK,):  # the first link alone: the planted fusion computes what the model does
        out = vary_probe.judge(SETTING, _div_mul(), one, PLANTED, ex)
        assert out.status == "done" and not out.findings, (one, out)
    assert variation.build(_div_mul(), EMPTY) is None  # the second link alone has no site on the base
    out = vary_probe.judge(SETTING, _div_mul(), CHAINED, PLANTED, ex)
    assert out.status == "done", out  # judged on the first link's feeds: x given its leading 1
    wrong = [f.message for f in out.findings if (f.oracle, f.kind) == ("numeric", "wrong-result")]
    assert any("shape [1, 2, 8] vs expected [0, 2, 8]" in m for m in wrong), out.findings  # x fed as [1, N, 8]
    neighbour = variation.build(_div_mul(), CHAINED)[0]
    assert vary_probe.invalid(SETTING, _div_mul(), neighbour, ex, CHAINED) is None


def test_the_chain_step_offers_a_declared_first_link_nobody_drew():
    from passcheck.cases import registry
    from passcheck.hunt.scheduler import CHAIN_EVERY, COMPOSE_EVERY, Scheduler

    case = registry().get(CASE)
    pool = [Base(case, f) for f in case.forms]
    s = Scheduler(pool, [PLANTED], seed=1, variations=True, compose=True)
    base = pool[0]
    assert RANK in base.variations(1)
    other = next(v for v in base.variations(1) if not chain.declares(v))
    step = COMPOSE_EVERY * (CHAIN_EVERY - 1) + COMPOSE_EVERY - 3
    s._only = "compose"
    assert s._chain_item(PLANTED, step, declared=True) is None  # no base met under the pass yet
    s.mark(Item(base.id, other, PLANTED))  # the base met, RANK never drawn, nothing moved
    drawn = []
    for k in range(24):  # the declared first links in turn, the least chained first
        assert s._chain_item(PLANTED, step + k * COMPOSE_EVERY * CHAIN_EVERY) is None  # the moved links' turn
        item = s._chain_item(PLANTED, step + k * COMPOSE_EVERY * CHAIN_EVERY, declared=True)
        if item is None:  # this step's CHAIN_LOOK builds were first links that open nothing (input-dim-zero's)
            continue
        assert chain.declares(variation.links(item.form)[0]), item
        drawn.append(item.form)
        s.mark(item)
    assert CHAINED in drawn and len(set(drawn)) == len(drawn), drawn
    assert not s.wrote_on.get(PLANTED)  # no first link moved the pass: none needed to


def test_a_spent_space_still_draws_the_chains_left():
    """``next`` returns None only once the chains are drawn too ("every item tried" is a promise)."""
    from passcheck.cases import registry
    from passcheck.hunt.scheduler import Scheduler

    case = registry().get(CASE)
    pool = [Base(case, f) for f in case.forms]
    s = Scheduler(
        pool, [PLANTED], seed=1, variations=True, vary_kinds=["shape-*"], rewrites=["neutral-elementwise"], compose=True
    )
    drawn = []
    for step in range(400):
        if (item := s.next(step)) is None:
            break
        drawn.append(item.form)
        s.mark(item)
    assert item is None, len(drawn)  # spent
    assert CHAINED in drawn, [f for f in drawn if variation.is_chained(f)]
