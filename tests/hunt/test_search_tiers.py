"""The hunt's search, session 25: composition steps take the opened and the carrying tiers in turn, a rewrite's
opened sites in one neighbour count as one (passcheck/hunt/scheduler.py ``_balance``, passcheck/hunt/compose.py
``compositions``); a base keeps one single site per site kind first and the site kind carries the rank
(passcheck/hunt/site_kind.py); R(base)'s inferred types are kept per base and rewrite form (``compose.carries``).
Real case models, real shape inference."""

from __future__ import annotations

import random

import pytest

from passcheck.hunt import compose
from passcheck.hunt.space import Item

PASS = "ort:basic"
FIX_ZERO = "vary:input-fix-zero@N"


def _reshape_from_shape():
    from passcheck.cases import registry
    from passcheck.hunt.space import Base

    return Base(registry().get("pattern-ort-fusion/reshape-from-shape"), "common")


@pytest.fixture(scope="module")
def reshape_from_shape():
    """One base for the module: its neighbours' compositions are listed once (Base keeps them)."""
    return _reshape_from_shape()


def _tiers(base) -> list[str]:
    """The tiers of the items the first 12 composition steps take on reshape-from-shape:common, every neighbour's
    own item tried under ort:basic (the steps through ``Scheduler.next``, as the hunt asks)."""
    from passcheck.hunt.scheduler import COMPOSE_EVERY, Scheduler

    s = Scheduler([base], [PASS], seed=1, variations=True, compose=True)
    s._declare_firsts = lambda *_: None  # the composition tiers alone: no declared input's chain step (M141)
    for v in base.variations(1):
        s.mark(Item(base.id, v, PASS))
    out = []
    for k in range(12):
        step = COMPOSE_EVERY * k + COMPOSE_EVERY - 3
        item = s.next(step)
        assert item is not None and compose.is_composed(item.form), item
        s.mark(item)
        out.append("opened" if item.form in base.fresh else "carried" if item.form in base.carried else "other")
    return out


def test_composition_steps_take_the_opened_and_the_carrying_tiers_in_turn(reshape_from_shape):
    """Every neighbour of reshape-from-shape opens sites (a refreshed annotation's new symbols, ``rename-dim-params``)
    and many carry the change (``input-fix-zero@N``'s ``unary-raised-rank`` on the Neg, R13's spelling): with the
    opened tier always first, the first 12 composition steps take opened sites alone; in turn, half of them carry."""
    got = _tiers(reshape_from_shape)
    assert got[:2] == ["opened", "carried"], got
    assert got.count("carried") >= 5, got


def test_without_the_turns_the_opened_tier_takes_every_composition_step(reshape_from_shape, monkeypatch):
    """The same 12 steps with the opened tier always first (``_carry_first`` held False while ranking, the rule
    before): no carrying rewrite is taken, which is what the test above rules out."""
    from passcheck.hunt import scheduler

    real = scheduler.Scheduler._balance

    def balance(self, base_id, form, pass_id):
        was, self._carry_first = self._carry_first, False
        try:
            return real(self, base_id, form, pass_id)
        finally:
            self._carry_first = was

    monkeypatch.setattr(scheduler.Scheduler, "_balance", balance)
    assert "carried" not in _tiers(reshape_from_shape)


def test_a_rewrite_s_opened_sites_in_one_neighbour_count_as_one():
    """``input-fix-zero@N`` opens a ``rename-dim-params`` site per refreshed symbol; with a place for every rewrite
    its other fresh sites fill the places left, but only the first one is in the opened tier (``opened``), so a
    neighbour with many symbols does not put many items ahead of every other neighbour's carrying rewrites."""
    base = _reshape_from_shape().model()
    for seed in range(3):
        opened: set[str] = set()
        fresh, _ = compose.compositions(base, FIX_ZERO, random.Random(seed), k=64, opened=opened)
        dims = [f for f in fresh if compose.split(f)[1].startswith("rename-dim-params@")]
        assert len(dims) >= 2, fresh
        assert opened & set(dims) and len(opened & set(dims)) == 1, (opened, dims)
        assert len({compose.split(f)[1].split("@")[0] for f in opened}) == len(opened)


def test_carries_keeps_r_of_the_base_per_rewrite_form(monkeypatch):
    """R(base)'s inferred types do not depend on the neighbour: two neighbours of one base asked about one rewrite
    infer R(base) once (3 inferences: R(base), R(V1), R(V2)); without the per-base dict, 4."""
    from passcheck.hunt import variation
    from passcheck.mutations import forms as hforms

    base = _reshape_from_shape()
    named = hforms.named(base.model())
    vs = [variation.build(base.model(), v, labelled=True)[0] for v in (FIX_ZERO, "vary:elem-double@graph")]
    calls = []
    real = compose._typed
    monkeypatch.setattr(compose, "_typed", lambda m: calls.append(1) or real(m))
    had = [real(v) for v in vs]
    kept: dict = {}
    got = [compose.carries(named, v, "unary-raised-rank@n7_Neg", h, kept) for v, h in zip(vs, had, strict=True)]
    assert got[0], got
    assert len(calls) == 3 and "unary-raised-rank@n7_Neg" in kept
    calls.clear()
    again = [compose.carries(named, v, "unary-raised-rank@n7_Neg", h) for v, h in zip(vs, had, strict=True)]
    assert again == got and len(calls) == 4


FOCUS = "pattern-ort-fusion/focus-space-to-depth"
RARE = "transpose-conjugate@#4:Concat"


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_site_of_a_rare_kind_is_kept_and_drawn_within_six_items(seed):
    """focus-space-to-depth's ``transpose-conjugate`` has 6 sites: 4 Slices read by the Concat, the Concat read by
    the Relu, the Relu. Drawn uniformly, 3 of 6 keep the Concat in half the seeds; one per site kind first keeps it
    in every seed, and a hunt pinned to the rewrite draws it within 6 items."""
    from passcheck.cases import registry
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import Base

    base = Base(registry().get(FOCUS), "common")
    assert len(base.model().graph.node) == 6 and base.model().graph.node[4].op_type == "Concat"
    assert RARE in base.forms(seed)
    s = Scheduler([base], [PASS], seed=seed, rewrites=("transpose-conjugate",))
    drawn = []
    for step in range(6):
        if (item := s.next(step)) is None:  # the pinned space is used up
            break
        s.mark(item)
        drawn.append(item.form)
    assert RARE in drawn, drawn


def test_uniform_sampling_misses_the_rare_site_in_some_seed():
    """The old rule (``enumerate_forms``' uniform 3 of 6) on the same base: the Concat's site is missing for one of
    the seeds above, which is what the per-kind sampling (``site_kind.sample``) changes."""
    from passcheck.cases import registry
    from passcheck.mutations import forms as hforms

    model = registry().get(FOCUS).build("common")
    missing = [
        s for s in range(1, 7) if RARE not in hforms.enumerate_forms(model, random.Random(f"{s}:{FOCUS}:common"))
    ]
    assert missing


def test_the_site_kind_tells_a_rank_2_operand_from_a_rank_3_one():
    """``transpose-identity@x`` before the MatMul of matmul-add-r2 and of matmul-add-r3 has one site signature (an
    input read by MatMul and the inserted Transpose); onnxruntime writes a Gemm for the rank-2 MatMul alone
    (Operators.md Gemm: rank-2 operands), so the two are two site kinds: trying one leaves the other new."""
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    r2, r3 = (
        next(b for b in bases([f"fusion-matmul/matmul-add-{r}"], generated=False) if b.form == "common")
        for r in ("r2", "r3")
    )
    s = Scheduler([r2, r3], [PASS], seed=1)
    two, three = Item(r2.id, "transpose-identity@x", PASS), Item(r3.id, "transpose-identity@x", PASS)
    assert {t[:3] for t in s.triples(two)} == {t[:3] for t in s.triples(three)}
    s.mark(two)
    assert s.triples(three) - s.tried == s.triples(three)


def test_a_variation_shrink_out_of_time_before_its_first_check_gives_none():
    """Under load a variation finding's shrink can start past its deadline: the first check raises TimeoutError and
    nothing was judged, so ``Shrinker.shrink`` gives None (the search saves the finding unshrunk) instead of
    unpacking the last hit that is not there (a hunt of pattern-ort-qdq/* ended with an internal error so)."""
    import time

    from passcheck.hunt.probe import Setting
    from passcheck.hunt.vary_probe import Shrinker

    model = _reshape_from_shape().model()
    late = Shrinker(Setting("t"), PASS, "numeric", "wrong-result", None, time.monotonic() - 1)
    assert late.shrink(model, FIX_ZERO) is None and late.tests == 0


def test_in_the_opened_tier_a_rewrite_the_neighbour_made_applicable_comes_first():
    """propagate-transpose's neighbours open 30 first sites; 9 are of a rewrite with no site on the base at all (R16's
    ``vary:elem-int8@xq>optional-input-default-omitted@n1_DequantizeLinear``: the int8 move gives a zero point of 0,
    the schema default), the others new labels of rewrites the base has (a renamed symbol, another value). On the
    opened-first composition steps those 9 come before the others (without ``Base.unlocked`` they are mixed). Since
    session 44 (cast-across-movement, transpose-conjugate-perm) 22 of them: 24 opened-first steps are looked at."""
    from passcheck.cases import registry
    from passcheck.hunt.scheduler import COMPOSE_EVERY, Scheduler
    from passcheck.hunt.space import Base

    base = Base(registry().get("pattern-ort-qdq/propagate-transpose"), "common")
    s = Scheduler([base], [PASS], seed=1, variations=True, compose=True)
    for v in base.variations(1):
        s.mark(Item(base.id, v, PASS))
    got = []
    for k in range(0, 48, 2):  # even composition steps: the opened tier first
        item = s.next(COMPOSE_EVERY * k + COMPOSE_EVERY - 3)
        s.mark(item)
        if item.form in base.fresh:
            got.append(item.form in base.unlocked)
    assert "vary:elem-int8@xq>optional-input-default-omitted@n1_DequantizeLinear" in base.unlocked
    assert got.count(True) == len(base.unlocked) and got == sorted(got, reverse=True), got
