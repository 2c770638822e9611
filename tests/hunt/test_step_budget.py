"""A hunt step within its budget (round 11d; ``Scheduler._walk``, M130; ``budget.Spent``, M129).

A step whose sample of ``SAMPLE`` bases holds no candidate (bases that do not run, or that a converter does not
convert) looked at the rest of the pool: it listed the forms of every base at once, and a broad
``onnxscript:convert-opset-up-ir`` hunt spent 359 s of 418 there (4 items on a 3-minute budget). Now the rest is
walked a group of ``SAMPLE`` live bases at a time, and a time budget that ends while a step is still choosing ends the
hunt there; the rewrites' and neighbours' preconditions (observed once per seed and source, 168 s on a cold cache
at load 20, inside the first step) are set-up, before the clock starts. Real generated bases and their real rewrite
forms."""

from __future__ import annotations

import time

import pytest

from passcheck.hunt.space import bases

PASS = "onnx:infer-shapes"


@pytest.fixture(scope="module")
def _bases():
    return bases(["generated/relu-14*", "generated/abs-13*", "generated/add-14*", "generated/sub-14*"], generated=True)


@pytest.fixture
def pool(_bases):
    """The module's bases with no forms listed yet: each test counts what its own steps list, whatever ran before."""
    for b in _bases:
        b._forms = None
    return _bases


def _listed(pool) -> int:
    return sum(b._forms is not None for b in pool)


def test_a_step_whose_sample_is_used_up_lists_one_group_not_the_pool(pool, monkeypatch):
    from passcheck.hunt.scheduler import SAMPLE, Scheduler

    walks = []
    walk = Scheduler._walk
    monkeypatch.setattr(Scheduler, "_walk", lambda self, *a: walks.append(a) or walk(self, *a))
    s = Scheduler(pool, [PASS], seed=1)
    live = {b.id for b in pool[:: len(pool) // 16]}  # 17 of 152 bases run, the others not: most samples hold none
    s.dead.update(b.id for b in pool if b.id not in live)
    for step in range(6):
        before, walked = _listed(pool), len(walks)
        item = s.next(step)
        assert item is not None and item.base in live, item
        grown = _listed(pool) - before
        if len(walks) > walked:  # the sample held no live base: one group listed, not the pool's live bases
            assert grown <= SAMPLE, (step, grown)
        s.mark(item)
    assert walks
    assert _listed(pool) < len(live), (_listed(pool), len(live))


def test_the_walk_finds_the_one_base_with_a_candidate_left(pool):
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(pool, [PASS], seed=1)
    keep = pool[len(pool) // 2]
    s.dead.update(b.id for b in pool if b is not keep)
    item = s.next(0)
    assert item is not None and item.base == keep.id  # walked to the end: not dropped for being rare
    s.dead.add(keep.id)
    assert Scheduler.next(s, 1) is None  # every base dead: exhausted, as before


def test_a_step_still_choosing_when_the_budget_ends_raises_spent_and_lists_nothing(pool):
    from passcheck.hunt.budget import Spent
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(pool, [PASS], seed=2)
    s.until = time.monotonic()  # the budget's end has come
    before = _listed(pool)
    with pytest.raises(Spent):
        s.next(0)
    assert _listed(pool) == before
    s.until = None
    assert s.next(0) is not None


def test_the_hunt_ends_on_budget_when_a_step_is_cut_short(tmp_path, monkeypatch, pool):
    from passcheck.hunt import preconditions, search
    from passcheck.hunt.budget import Budget, Spent
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import Item
    from passcheck.hunt.store import Store

    seen, made = [], []
    first = Item(pool[0].id, pool[0].forms(1)[0], PASS)

    def next_(self, step):  # step 0 (another shard's: nothing runs) is chosen, step 1 is still choosing at the end
        seen.append(self.until)
        if step == 0:
            return first
        raise Spent

    monkeypatch.setattr(Scheduler, "next", next_)
    monkeypatch.setattr(preconditions.Preconditions, "of", classmethod(lambda cls, b, s: made.append(time.monotonic())))
    store = Store.open(tmp_path / "h", {"seed": 1}, resume=False)
    ended = search.hunt(
        store, pool, [PASS], 1, Budget(seconds=600), executor=None, guide=False, variations=True, shard=(2, 2)
    )
    assert ended.why == "budget" and [r["form"] for r in store.items] == [first.form]  # step 1 records nothing
    assert seen[0] is None  # a call's first step is whole: a time budget always runs an item (test_hunt.py)
    assert seen[1] is not None and seen[1] - 600 <= time.monotonic()  # then the scheduler is given the budget's end
    assert made and made[0] <= seen[1] - 600  # the preconditions are set-up: observed before the clock starts
    assert (tmp_path / "h" / "hunt-state.json").exists()  # the state is written as at any end


def test_a_vary_step_steered_by_the_map_lists_no_rewrite_forms():
    # M131: an entry's (entry, spelling) pairs skip a rewrite form tried under the entry unless it is at one of the
    # entry's sites; the sites come from the base's every rewrite form, and a neighbour or composed step asked them
    # of every sampled base of every entry it walked (89.8 s of a 98.6 s step of the strict shape-inference hunt)
    from passcheck.coverage.entry import Entry, Evidence
    from passcheck.coverage.map import CoverageMap
    from passcheck.hunt.scheduler import Scheduler

    maxes = bases(["generated/max-12*"], generated=True)
    entry = Entry("ort", "transformer", "MaxCastInsertion", ("planted:max-reader",), "level 1")
    ev = [Evidence(entry.key, b.id, "test") for b in maxes]
    s = Scheduler(maxes, ["planted:max-reader"], seed=1, cmap=CoverageMap({entry.key: entry}, {entry.key: ev}, [], {}))
    s.variations = True
    s._only = "vary"
    item = s._map.untried(s, 3, "planted:max-reader")
    assert item is not None and item.form.startswith("vary:"), item
    assert all(b._forms is None for b in maxes)  # no base's rewrite forms listed for a neighbour step
    s._only = "rewrite"
    s.pairs_tried.add((entry.key, "*"))
    item = s._map.untried(s, 2, "planted:max-reader")
    assert item is not None and not item.form.startswith("vary:"), item  # a rewrite step still reads them
