"""What the hunt's scheduler counts as new (passcheck/hunt/scheduler.py, session 20): a neighbour kind is new per
pass, a rewrite is new at each kind of site its site signature tells apart, a neighbour kind few bases offer
(passcheck/hunt/vary_rare.py) is not left to the base sample, and the parametrized pass ids the installed tools list
(onnxoptimizer:pass-*, ort-transformers:*) are searched without --pass. Real case models, real schemas."""

from __future__ import annotations

import pytest

from passcheck.hunt import variation
from passcheck.hunt.space import Item, bases
from tests.hunt.test_units import PLANTED

P1, P2 = "planted:negative-axes", "planted:commuted"


@pytest.fixture(scope="module")
def planted():
    from passcheck.cases import load_path

    load_path(PLANTED)
    return {b.id: b for b in bases(["hunt-test/*"], generated=False)}


@pytest.fixture(scope="module")
def library():
    """The hand-written library's bases (no generated set), shared by the tests that schedule over all of it: each
    built them anew, and a base keeps the models and sites it has computed (tests/_schedule.py keeps a module on
    one worker)."""
    return bases([], generated=False)


def test_a_neighbour_kind_tried_under_one_pass_is_still_new_under_another(planted):
    """layernorm's value-nudge was tried under P1 only; under P2 it is as new as its elem kinds, and the value
    family (1 item) has had fewer items than the elem family (2, on softmax): P2 takes the value-nudge."""
    from passcheck.hunt.scheduler import VARIATION_EVERY, Scheduler

    ln, soft = planted["hunt-test/layernorm:common"], planted["hunt-test/softmax:common"]
    own = {ln.id: [P1, P2], soft.id: [P1]}
    s = Scheduler(
        [ln, soft],
        [P1, P2],
        seed=5,
        passes_of=lambda b: own[b],
        variations=True,
        vary_kinds=("value-nudge", "elem-*"),
    )
    s.mark(Item(ln.id, "vary:value-nudge@gamma", P1))
    s.mark(Item(soft.id, "vary:elem-double@graph", P1))
    s.mark(Item(soft.id, "vary:elem-float16@graph", P1))
    item = s.next(VARIATION_EVERY - 1)
    assert (item.base, item.pass_id) == (ln.id, P2)
    assert variation.kind(item.form) == "vary:value-nudge", item.form


def test_a_rewrite_at_another_kind_of_site_of_the_same_op_is_new(planted):
    """commute-operands at the Add read by Sqrt and at the Add writing the graph output: one op type, one rewrite,
    two site signatures (sites.site_signatures: the node's readers differ)."""
    from passcheck.hunt.scheduler import ALL_SITES, Scheduler

    ln = planted["hunt-test/layernorm:common"]
    s = Scheduler([ln], [P1], seed=5)
    s.mark(Item(ln.id, "commute-operands@#4:Add", P1))
    other = s.triples(Item(ln.id, "commute-operands@#9:Add", P1))
    assert {t[0] for t in other} == {"Add"}
    assert other - s.tried, other
    assert not s.triples(Item(ln.id, "commute-operands@#4:Add", P1)) - s.tried
    assert {t[3] for t in s.triples(Item(ln.id, "commute-operands", P1))} == {ALL_SITES}


def test_a_kind_one_case_offers_is_drawn_before_the_sample_would_meet_it(library):
    """value-floor-edge is offered by one case of the hand-written library (optional-input/resize-scales-sizes,
    3 forms of 1,193 bases); the sample of 8 bases per step meets one of them about once in 50 steps. With the
    rare kinds' share, the first variation step of a pass takes the rarest kind a base offers (``Rare.meeting``
    order: ``qdq-16bit`` since session 36, which only opset-21+ bases offer, then value-floor-edge), and the
    next steps go to the families (another site of that kind on its base is the sites' share, not a rare one)."""
    from passcheck.hunt.scheduler import RARE, VARIATION_EVERY, Scheduler
    from passcheck.hunt.vary_rare import Rare

    found = library
    rare = Rare(found, 8, 1)
    assert {b.case.id for b in rare.offering("value-floor-edge")} == {"optional-input/resize-scales-sizes"}
    s = Scheduler(found, ["onnx:infer-shapes"], seed=1, variations=True)
    rarest = next(k for k in s.rare.meeting if s.rare.offering(k))
    items = []
    for k in range(3):
        item = s.next(VARIATION_EVERY * k + VARIATION_EVERY - 1)
        s.mark(item)
        items.append(item)
    drawn = [variation.kind(i.form) for i in items]
    assert drawn[0] == f"vary:{rarest}", drawn
    again = [i for i in items[1:] if variation.kind(i.form) == drawn[0]]
    assert all(i.base == items[0].base and i.form != items[0].form for i in again), drawn  # other sites only
    others = {variation.kind(i.form)[len("vary:") :] for i in items[1:]} - {rarest}
    assert not others & set(s.rare.meeting), drawn  # once per pass, then the families take their turn
    # the rare share counts first items of rare kinds only: another site of one is the sites' share, else a rare
    # kind with many sites (qdq-16bit on an opset-21 base) used up the share and kept the next rare kinds out
    firsts = {
        (i.pass_id, variation.kind(i.form)) for i in items if variation.kind(i.form)[len("vary:") :] in s.rare.meeting
    }
    assert s.families[RARE] == len(firsts), (s.families, drawn)


def test_rewrite_globs_alone_keep_the_rare_kinds_out_too(library):
    """--rewrite without --vary-kind tries no neighbour (docs/hunt.md): the rare kinds' share, which the test
    above shows drawn on the first variation step, is not drawn either (it was: vary:value-floor-edge items in a
    hunt restricted to negative-axes and the axes rewrites)."""
    from passcheck.hunt.scheduler import VARIATION_EVERY, Scheduler

    s = Scheduler(library, ["onnx:infer-shapes"], seed=1, variations=True, rewrites=("negative-axes", "typed-data"))
    forms = []
    for step in range(3 * VARIATION_EVERY):
        item = s.next(step)
        if item is None:
            break
        s.mark(item)
        forms.append(item.form)
    assert forms and not any(variation.is_variation(f) for f in forms), forms


def test_without_pass_the_parametrized_ids_of_the_installed_tools_are_searched(planted):
    """Each onnxoptimizer pass (onnxoptimizer:pass-NAME) declares a tool the coverage catalogue does not know, so
    it runs every entry (PassScope) and every observed case draws from it, like onnxoptimizer:optimize."""
    pytest.importorskip("onnxoptimizer")
    from passcheck.hunt import passes
    from passcheck.passes import parametrized_pass_ids
    from passcheck.passes.onnxoptimizer_passes import pass_ids

    class _Map:  # a map whose one observed base triggers no entry: every registered pass is unreached
        entries: dict = {}
        evidence: dict = {}
        bases = ("hunt-test/layernorm:common",)

        def bases_of(self, key):
            return ()

        def by_base(self):
            return {}

    plan = passes.relevant([planted["hunt-test/layernorm:common"]], _Map())
    own = plan.of("hunt-test/layernorm:common")
    assert set(pass_ids()) <= set(own) and set(pass_ids()) <= set(plan.passes)
    assert set(parametrized_pass_ids()) <= set(plan.unreached) | set(plan.unavailable)


def test_a_second_site_of_a_kind_tried_on_a_base_gets_a_share_of_the_variation_steps(monkeypatch):
    """A planted defect at one site of a neighbour kind alone: pattern-ort-qdq/conv:opset-19's elem-split-float16
    (a float16 part of the QDQ type group split at a shared constant: variation.SPLIT_KINDS) has two sites, y and
    c, and the planted pass breaks only at the one the hunt draws second. Over the 31 bases of pattern-ort-qdq
    (hundreds of neighbours), the site share reaches it within 600 variation steps (session 26: c at 51, y at 208;
    session 33, with ``expose-input`` on every base: c at 78, y at 323; with ``input-dim-zero`` and
    ``shape-target-regroup`` too: c at 52, y at 437, and without the share c alone, at 64; session 37, with
    ``qdq-float-params``: c at 51, y at 528); without the share the
    steps go to the kinds not yet tried on some base and only one site is drawn (docs/hunt.md: in a 3-minute hunt of
    onnx-1.17, c was never drawn among 906 neighbours)."""
    from passcheck.hunt import scheduler
    from passcheck.hunt.scheduler import VARIATION_EVERY, Scheduler

    found = bases(["pattern-ort-qdq/*"], generated=False)
    base = "pattern-ort-qdq/conv:opset-19"
    split = {f for b in found if b.id == base for f in b.variations(1) if f.startswith("vary:elem-split-float16@")}
    # sampled (variation.PER_KIND): y and c until session 27, x and y while one rng ran across the kinds and the
    # default-fed kind's sites were drawn too; y and c again since each kind samples with its own rng (round 8e, M71)
    assert split == {"vary:elem-split-float16@y", "vary:elem-split-float16@c"}, split

    def drawn(steps: int) -> list[str]:
        s = Scheduler(found, ["planted:second-site"], seed=1, variations=True)
        out = []
        for k in range(steps):
            item = s.next(VARIATION_EVERY * k + VARIATION_EVERY - 1)
            s.mark(item)
            if item.base == base and item.form in split:
                out.append(item.form)
        return out

    assert set(drawn(600)) == split
    monkeypatch.setattr(scheduler.Scheduler, "_site_item", lambda self, pass_id, step: None)
    assert len(drawn(600)) == 1
