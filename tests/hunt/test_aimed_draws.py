"""Aimed draws (round 10e, M106; ``passcheck.hunt.aim``, ``Scheduler._aimed_item``): a neighbour kind or rewrite is
drawn where its sites touch an op type the pass reads, read from the catalogue entries the pass runs. Real generated
bases, real neighbours; the pass is a test id scoped by one catalogue entry (a transformer whose name spells Max, as
onnxruntime's float16 conversion lists Max among the ops it blocks)."""

from __future__ import annotations

import pytest

from passcheck.coverage.entry import Entry
from passcheck.coverage.map import CoverageMap
from passcheck.hunt.aim import entry_reads
from passcheck.hunt.space import bases

PASS = "planted:max-reader"
ENTRY = Entry("ort", "transformer", "MaxCastInsertion", (PASS,), "level 1")


@pytest.fixture(scope="module")
def pool():
    return bases(["generated/max-12*", "generated/add-14*", "generated/relu-14*", "generated/sub-14*"], generated=True)


def _scheduler(pool, entries=(ENTRY,)):
    from passcheck.hunt.scheduler import Scheduler

    cmap = CoverageMap({e.key: e for e in entries}, {}, [], {})
    return Scheduler(pool, [PASS], seed=1, cmap=cmap, variations=True)


def _aimed_vary_step(k: int) -> int:
    from passcheck.hunt.scheduler import AIM_AT, AIM_VARY_EVERY, VARIATION_EVERY

    return VARIATION_EVERY * (AIM_VARY_EVERY * k + AIM_AT) + VARIATION_EVERY - 1


def test_an_entry_reads_its_registered_op_its_spelt_ops_and_its_search_ops():
    fusion = Entry(
        "ort-transformers", "fusion", "FusionLayerNormalization", ("p",), "search ReduceMean → LayerNormalization"
    )
    assert {"ReduceMean", "LayerNormalization"} <= entry_reads(fusion)
    assert entry_reads(Entry("onnx", "adapter", "Upsample:9->8", ("p",), "opsets 7-23")) == {"Upsample"}
    assert entry_reads(ENTRY) == {"Max", "Cast"}


def test_the_aimed_variation_steps_draw_neighbours_at_the_ops_the_pass_reads(pool):
    s = _scheduler(pool)
    assert s._map.reads[PASS] == {"Max", "Cast"}
    s._only = "vary"
    kinds = []
    for k in range(9):
        item = s._aimed_item(PASS, _aimed_vary_step(k))
        assert item is not None
        assert "Max" in s.by_id[item.base].ops(), item  # no Cast base in the pool: every draw is on a Max base
        assert "Max" in {t[0] for t in s.triples(item)}, item
        kinds.append(item.form.split("@")[0])
        s.mark(item)
    assert "vary:fanout-copy" in kinds, kinds  # the copy of a Max: a second reader the pass treats alike
    assert len(set(kinds[:6])) == 6, kinds  # the kind held least at a read op first: no repeat in the first six
    assert max(kinds.count(k) for k in kinds) <= 2, kinds  # (by new triples alone: input-rank-up 3 times in 9)


def test_other_steps_and_a_pass_reading_nothing_here_are_not_aimed(pool):
    s = _scheduler(pool)
    s._only = "vary"
    assert s._aimed_item(PASS, _aimed_vary_step(0) + 4) is None  # the next variation step is no aimed one
    other = _scheduler(pool, (Entry("ort", "transformer", "FuseConvPad", (PASS,), "level 1"),))
    other._only = "vary"
    assert other._aimed_item(PASS, _aimed_vary_step(0)) is None  # Conv, Pad: no base of the pool holds them


def test_the_aimed_rewrite_steps_draw_rewrites_at_the_ops_the_pass_reads(pool):
    from passcheck.hunt.scheduler import AIM_REWRITE_AT, AIM_REWRITE_EVERY
    from passcheck.mutations import forms as hforms

    s = _scheduler(pool)
    s._only = "rewrite"
    item = s._aimed_item(PASS, AIM_REWRITE_EVERY + AIM_REWRITE_AT)
    assert item is not None and len(hforms.parts(item.form)) == 1
    assert "Max" in {t[0] for t in s.triples(item)}, item


def test_an_op_no_drawn_base_holds_takes_no_look(pool, monkeypatch):
    """M116 (aim31): the op order puts the op fewest bases hold first; one whose every base is dead (or not drawn
    under the pass) is passed over, not looked at. With one look a step, the Max bases all dead and Relu (27 bases
    against Max's 16) second, the aimed step draws at Relu; before, it returned None on every step."""
    from passcheck.hunt import scheduler

    monkeypatch.setattr(scheduler, "AIM_LOOK", 1)
    s = _scheduler(pool, (Entry("ort", "transformer", "MaxReluFusion", (PASS,), "level 1"),))
    assert s._map.reads[PASS] == {"Max", "Relu"}
    s.dead.update(b.id for b in pool if "Max" in b.ops())
    s._only = "vary"
    item = s._aimed_item(PASS, _aimed_vary_step(0))
    assert item is not None
    assert "Relu" in s.by_id[item.base].ops() and "Relu" in {t[0] for t in s.triples(item)}, item


def test_the_reads_of_every_pass_are_spelt_in_one_walk_of_the_entries(pool, monkeypatch):
    """M200 (speed34): the scheduler's ``reads`` equal :func:`.aim.pass_reads` of each pass, entries run by two
    passes, a pass's declared tools and an entry's observed effects included; each entry a pass runs is spelt once
    (before, once per pass running it: ~25,000 spellings of ~4,400 entries at each map rebuild of a hunt)."""
    from passcheck.coverage.entry import Evidence, PassScope
    from passcheck.hunt import aim
    from passcheck.hunt.scheduler import Scheduler

    other = "planted:other-reader"
    entries = (
        ENTRY,  # Max, Cast: PASS
        Entry("ort", "transformer", "ReluClipFusion", (PASS, other), "level 1"),  # Relu, Clip: both passes
        Entry("onnx", "inference", "Sub@14", (other,), "opsets 14-23"),  # Sub: the other
        Entry("onnxscript", "rule", "SomeRule", (other,), "rewrite"),  # Add, from the effect observed below
        Entry("ort", "transformer", "GeluFusion", ("planted:not-hunted",), "level 1"),  # no hunted pass runs it
    )
    keyed = {e.key: e for e in entries}
    base = next(b.id for b in pool if "Add" in b.ops())
    evidence = {entries[3].key: [Evidence(entries[3].key, base, "try_rewrite replaced Add node n0")]}
    spelt = []
    monkeypatch.setattr(aim, "entry_reads", lambda e, effects=(): spelt.append(e.key) or entry_reads(e, effects))
    s = Scheduler(pool, [PASS, other], seed=1, cmap=CoverageMap(keyed, evidence, [base], {}), variations=True)
    assert s._map.reads == {PASS: {"Max", "Cast", "Relu", "Clip"}, other: {"Relu", "Clip", "Sub", "Add"}}
    assert sorted(spelt) == sorted(e.key for e in entries[:4])  # once each; the entry no hunted pass runs never
    scope = PassScope(entries)
    assert s._map.reads == {p: aim.pass_reads(entries, scope.runs, p, evidence) for p in (PASS, other)}
