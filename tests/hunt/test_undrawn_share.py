"""Kinds never drawn get a share of their own (round 13h, M204; round 14d, M225; ``Scheduler._undrawn_item``): once
every rewrite the listed bases offer has an item under the pass (``Scheduler.rewrites_drawn``), one rewrite step in
four, while a neighbour kind the listed bases offer has no item under the pass, takes one of the never-drawn kind
with the most sites; before that the step stays the rewrite search's, and no variation step is the share's. Real
case models (pattern-onnxoptimizer bases); the scheduler is walked without running a pass (its choice depends on the
items marked alone). The hunt that needs the rewrite steps is
``tests/hunt/test_hunt.py::test_planted_pass_missing_one_spelling_is_found``."""

from __future__ import annotations

import pytest

from passcheck.hunt import scheduler as sched
from passcheck.hunt import undrawn, variation
from passcheck.hunt.space import Item, bases

PASS = "onnxoptimizer:optimize"


@pytest.fixture(scope="module")
def found():
    return bases(["pattern-onnxoptimizer/*"], generated=False)


def _offered(listed) -> dict[str, int]:
    out: dict[str, int] = {}
    for b in listed:
        for kind, n in b.offered().items():
            out[kind] = out.get(kind, 0) + n
    return out


def _draw_every_rewrite(s, listed) -> list[str]:
    """Lists ``listed``'s forms and marks one plain item of each rewrite that applies to them; the rewrite ids."""
    for b in listed:
        b.forms(1)  # lists the rewrites that apply to it (Base.applied)
    offered = sorted(set().union(*(b.applied for b in listed)))
    for rid in offered:
        s.mark(Item(next(b.id for b in listed if rid in b.applied), rid, PASS))
    return offered


def test_an_undrawn_step_takes_the_kind_with_the_most_sites_none_drawn_then_the_next(found):
    s = sched.Scheduler(found, [PASS], seed=1, variations=True)
    assert all(b.offered() == {} for b in found)  # nothing listed: nothing offered, nothing built
    listed = found[:6]
    for b in listed:
        b.variations(1)
    sites = _offered(listed)
    assert len(sites) >= 10 and all(n >= 1 for n in sites.values())
    _draw_every_rewrite(s, listed)
    s._only = "rewrite"
    assert s._undrawn_item(PASS, 7) is None  # 7 % 4 != 0: not the share's rewrite step
    drawn: list[str] = []
    while (item := s._undrawn_item(PASS, 4)) is not None:
        kind = variation.kind(item.form)
        left = {k: n for k, n in sites.items() if k not in drawn}
        assert kind not in drawn and left[kind] == max(left.values())  # the most sites among the kinds left
        assert item.base in {b.id for b in listed}
        drawn.append(kind)
        s.mark(item)
    assert sorted(drawn) == sorted(sites)  # every offered kind once, then none


def test_a_rewrite_step_takes_an_undrawn_kind_only_once_every_offered_rewrite_is_drawn():
    listed = bases(["pattern-onnxoptimizer/*"], generated=False)[:3]  # fresh bases: nothing listed by another test
    s = sched.Scheduler(listed, [PASS], seed=1, variations=True)
    assert not s.rewrites_drawn(PASS)  # nothing listed is nothing drawn
    for b in listed:
        b.variations(1)
        b.forms(1)  # lists the rewrites that apply to it (Base.applied)
    offered = sorted(set().union(*(b.applied for b in listed)))
    assert len(offered) >= 5
    s._only = "rewrite"
    assert s._undrawn_item(PASS, 8) is None and not s.rewrites_drawn(PASS)  # the rewrite search keeps the step
    for rid in offered[:-1]:  # every offered rewrite but one drawn as its all-at-once form
        s.mark(Item(next(b.id for b in listed if rid in b.applied), rid, PASS))
    assert s._undrawn_item(PASS, 8) is None and not s.rewrites_drawn(PASS)
    s.mark(Item(next(b.id for b in listed if offered[-1] in b.applied), offered[-1], PASS))
    assert s.rewrites_drawn(PASS)
    assert s._undrawn_item(PASS, 6) is None  # 6 % 4 != 0: not the share's rewrite step
    item = s._undrawn_item(PASS, 8)
    assert item is not None and variation.is_variation(item.form) and item.base in {b.id for b in listed}
    s._only = "vary"
    assert s._undrawn_item(PASS, 8) is None  # a variation step is not the share's, whatever its number (round 14d)


def test_rewrites_drawn_reads_pairs_and_the_rewrite_filter():
    assert not undrawn.rewrites_drawn([], ["a"], lambda r: True)  # nothing offered: not drawn
    assert not undrawn.rewrites_drawn([{"a", "b"}], ["a"], lambda r: True)
    assert undrawn.rewrites_drawn([{"a"}, {"b"}], ["a+b"], lambda r: True)  # a pair's item draws both
    assert undrawn.rewrites_drawn([{"a", "b"}], ["a"], lambda r: r == "a")  # --rewrite a: b is not offered
    assert not undrawn.rewrites_drawn([{"b"}], [], lambda r: r == "a")  # none the hunt takes: nothing offered
    kinds = undrawn.undrawn_kinds(
        [("x", {"vary:k1": 2, "vary:k2": 1}), ("y", {"vary:k2": 3, "vary:k3": 0})], {"k1"}, lambda k: True, len
    )
    assert kinds == [("vary:k2", {"x": 1, "y": 3})]  # k1 drawn, k3 has no site
