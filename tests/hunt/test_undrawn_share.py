"""Kinds never drawn get a share of their own (round 13h, M204; ``Scheduler._undrawn_item``): on a third of the
variation steps and one rewrite step in four, while a neighbour kind the listed bases offer has no item under the
pass, the step takes one of the never-drawn kind with the most sites. Real case models (46 pattern-onnxoptimizer
bases); the scheduler is walked without running a pass (its choice depends on the items marked alone)."""

from __future__ import annotations

import pytest

from passcheck.hunt import scheduler as sched
from passcheck.hunt import variation
from passcheck.hunt.space import bases

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


def test_an_undrawn_step_takes_the_kind_with_the_most_sites_none_drawn_then_the_next(found):
    s = sched.Scheduler(found, [PASS], seed=1, variations=True)
    assert all(b.offered() == {} for b in found)  # nothing listed: nothing offered, nothing built
    listed = found[:6]
    for b in listed:
        b.variations(1)
    sites = _offered(listed)
    assert len(sites) >= 10 and all(n >= 1 for n in sites.values())
    s._only = "vary"
    assert s._undrawn_item(PASS, 7) is None  # (7 // 4) % 3 == 1: not an undrawn variation step
    drawn: list[str] = []
    while (item := s._undrawn_item(PASS, 3)) is not None:
        kind = variation.kind(item.form)
        left = {k: n for k, n in sites.items() if k not in drawn}
        assert kind not in drawn and left[kind] == max(left.values())  # the most sites among the kinds left
        assert item.base in {b.id for b in listed}
        drawn.append(kind)
        s.mark(item)
    assert sorted(drawn) == sorted(sites)  # every offered kind once, then none
    s._only = "rewrite"
    assert s._undrawn_item(PASS, 4) is None  # every kind drawn: the rewrite step is the usual one


def test_a_rewrite_step_in_four_takes_an_undrawn_kind(found):
    s = sched.Scheduler(found, [PASS], seed=1, variations=True)
    for b in found[:3]:
        b.variations(1)
    s._only = "rewrite"
    assert s._undrawn_item(PASS, 1) is None and s._undrawn_item(PASS, 6) is None
    item = s._undrawn_item(PASS, 8)
    assert item is not None and variation.is_variation(item.form)


def _walk(steps: int) -> tuple[set[str], set[str]]:
    found = bases(["pattern-onnxoptimizer/*"], generated=False)  # none listed yet
    s = sched.Scheduler(found, [PASS], seed=1, variations=True)
    for step in range(steps):
        if (item := s.next(step)) is None:
            break
        s.mark(item)
    offered = set().union(*(b.offered() for b in found))
    return {f"{variation.PREFIX}{k}" for k in s.kinds_on.get(PASS, ())}, offered


def test_a_short_walk_reaches_many_more_offered_kinds_with_the_share(monkeypatch):
    """Seed 1, 96 steps (a 3-minute broad hunt at load ~20 is 100-200 items): 37 of 58 offered kinds drawn with the
    share, 22 without (docs/recall.md, round 13h)."""
    with_share, offered = _walk(96)
    monkeypatch.setattr(sched.Scheduler, "_undrawn_item", lambda self, p, step: None)
    without, _ = _walk(96)
    assert with_share <= offered
    assert len(with_share) >= len(without) + 10, (len(with_share), len(without))
