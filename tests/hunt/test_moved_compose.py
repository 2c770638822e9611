"""Two uncommon draws composed (round 9e, M90; ``Scheduler._moved_item``): a neighbour whose item found a new
signature (it moved the pass) gets its rewrites drawn on every other composition step, one site per rewrite it
opened or changed, the least-held (neighbour kind, rewrite) pair first, then the rarest rewrite. docs/recall.md R29
needs ``empty-optional-outputs`` on top of ``input-constant``. Real generated Dropout bases."""

from __future__ import annotations

import pytest

from passcheck.hunt.space import Item, bases

PASS = "ort:basic"


UNARY = ("relu", "neg", "abs", "sigmoid", "tanh", "exp", "log", "sqrt", "floor", "ceil")


@pytest.fixture(scope="module")
def pool():
    """A few Dropout bases among unary ones: Dropout's optional ``mask`` output makes ``empty-optional-outputs`` a
    rare rewrite here (:mod:`passcheck.hunt.rare_rewrites`), as it is on the full set."""
    return bases(["generated/dropout-10.attr-default*"] + [f"generated/{o}-*" for o in UNARY], generated=True)


def _setup(pool, moved: bool):
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(pool, [PASS], seed=1, variations=True, compose=True)
    base = next(b for b in pool if "dropout" in b.id and "vary:input-constant@data" in b.variations(1))
    s.mark(Item(base.id, "vary:input-constant@data", PASS), moved=moved)
    s._only = "compose"
    return s, base


def _step(k: int) -> int:
    from passcheck.hunt.scheduler import COMPOSE_EVERY, MOVED_EVERY

    return COMPOSE_EVERY * MOVED_EVERY * k + COMPOSE_EVERY - 3


def test_a_moved_neighbour_gets_each_of_its_rewrites_before_one_twice(pool):
    from passcheck.hunt import compose
    from passcheck.hunt.scheduler import COMPOSE_EVERY

    s, base = _setup(pool, moved=True)
    offered = s.moved_forms(base, "vary:input-constant@data")
    assert any("empty-optional-outputs@" in f for f in offered), offered  # every rewrite, not 4 sampled
    assert len(offered) > compose.PER_NEIGHBOUR
    meeting = s.rare_rewrites.meeting
    assert "empty-optional-outputs" in meeting
    first = s._moved_item(PASS, _step(0))
    rid = compose.split(first.form)[1].partition("@")[0]
    rarest = min(len(meeting.get(compose.split(f)[1].partition("@")[0], pool)) for f in offered)
    assert len(meeting.get(rid, pool)) == rarest, first
    assert s._moved_item(PASS, _step(0) + COMPOSE_EVERY) is None  # the other composition steps keep their tiers
    drawn = []
    for k in range(len(offered)):
        item = s._moved_item(PASS, _step(k))
        drawn.append(compose.split(item.form)[1].partition("@")[0])
        s.mark(item)
    assert len(set(drawn)) == len(drawn) == len(offered)
    rarity = [len(meeting.get(r, pool)) for r in drawn]
    assert rarity == sorted(rarity)  # the rarest rewrites first


def test_a_neighbour_that_found_nothing_new_is_not_composed_first(pool):
    s, _ = _setup(pool, moved=False)
    assert s._moved_item(PASS, _step(0)) is None


def test_a_rewrite_of_a_neighbour_that_moved_the_pass_makes_the_neighbour_moved(pool):
    """In a 3-minute ``ort:basic`` hunt 5 of 6 moved items with a neighbour were rewrites of one (round 9e)."""
    from passcheck.hunt import compose

    s, base = _setup(pool, moved=False)
    first = s.moved_forms(base, "vary:input-constant@data")[0]
    s.mark(Item(base.id, first, PASS), moved=True)
    item = s._moved_item(PASS, _step(0))
    assert item is not None and compose.split(item.form)[0] == "vary:input-constant@data"
    assert s.moved_on[PASS] == [(base.id, "vary:input-constant@data")]


def test_two_moved_neighbours_take_turns(pool):
    """The moved neighbour with the fewest composed items goes first: one neighbour that moved early does not take
    every moved step (a 3-minute ``ort:basic`` hunt gave ``value-floor-edge@sc`` 20 of 21 before)."""
    from passcheck.hunt import compose

    s, base = _setup(pool, moved=True)
    other = next(b for b in pool if b.id != base.id and "vary:input-constant@X" in b.variations(1))
    s.mark(Item(other.id, "vary:input-constant@X", PASS), moved=True)
    got = []
    for k in range(4):
        item = s._moved_item(PASS, _step(k))
        got.append((item.base, compose.split(item.form)[0]))
        s.mark(item)
    assert got[0] != got[1] and got[0] == got[2] and got[1] == got[3], got
