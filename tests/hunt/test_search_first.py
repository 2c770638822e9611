"""The hunt's search, session 26: each neighbour kind and each op-free rewrite gets an early item per pass, and a
rewrite's sites where it writes an op the pass's catalogue entry acts on are offered and ranked first
(passcheck/hunt/scheduler.py, passcheck/hunt/entry_sites.py). Real case models."""

from __future__ import annotations

from passcheck.hunt import compose, variation
from passcheck.hunt.space import Item
from tests.hunt.conftest import drawn as _walk

PASS = "onnxscript:rewrite"


def _scheduler(cases: list[str], **kw):
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    return Scheduler(bases(cases, False), [PASS], seed=1, variations=True, **kw)


def test_every_neighbour_kind_is_drawn_once_on_a_pass_before_the_frequent_kinds_repeat():
    """Over conv-bn's and add-zero-first's forms, every variation kind they offer (43 in session 37) is drawn under
    the pass within the first (kinds offered + 4) variation items (without the kind's first-on-the-pass rank: a kind
    new to a base but tried on its siblings ranks alike, and the last kind came 15 or more items later)."""
    s = _scheduler(["pattern-ort/conv-bn", "pattern-onnxscript/add-zero-first"])
    offered = {variation.kind(v) for b in s.bases for v in b.variations(1)}
    bound = len(offered) + 4
    drawn: list[str] = []
    for item in _walk(s, 4 * bound + 8):
        if variation.is_variation(item.form):
            drawn.append(variation.kind(item.form))
    assert len(drawn) >= bound
    assert offered <= set(drawn[:bound]), sorted(offered - set(drawn[:bound]))


def test_each_op_free_rewrite_gets_an_early_item_on_the_pass():
    """A rewrite whose sites are no nodes (``deep-identity-chain``, ``rename-values`` …) is one of ~160 for the
    triple rule; with one early item each (half of the rewrite steps while they last), the first 60 rewrite
    items of add-zero-first draw 30 of them, each once."""
    from passcheck.hunt.entry_sites import op_free
    from passcheck.mutations import forms as hforms

    s = _scheduler(["pattern-onnxscript/add-zero-first"])
    plain = [i for i in _walk(s, 100) if not variation.is_variation(i.form) and not compose.is_composed(i.form)][:60]
    free = [hforms.kind(i.form) for i in plain if all(op_free(r) for r, _ in hforms.parts(i.form))]
    assert len(free) >= 30 and len(set(free)) >= 30, free


def test_a_site_where_the_rewrite_writes_an_op_the_pass_s_entry_acts_on_is_offered_and_ranked(monkeypatch):
    """pad-conv under a pass whose triggered entry acts on Pad and Conv (a Pad → Conv fusion): ``neutral-op``'s
    crop in front of the Conv is none of the base's 3 sampled sites of the rewrite, but a site where the rewrite
    writes a Pad (:func:`entry_sites.written`), so it is a candidate and comes within the first 6 rewrite items."""
    from passcheck.hunt import entry_sites
    from passcheck.hunt.scheduler import Scheduler

    monkeypatch.setattr(Scheduler, "entry_ops", lambda self, b, p: frozenset({"Pad", "Conv"}))
    s = _scheduler(["pattern-ort/pad-conv"])
    base = next(b for b in s.bases if b.form == "common")
    crop = [f for f in s.entry_sites(base, PASS) if f.endswith(":pad-crop")]
    assert crop and crop[0] not in base.forms(1), (crop, [f for f in base.forms(1) if "neutral-op" in f])
    sigs = __import__("passcheck.mutations.sites", fromlist=["x"]).site_signatures(base.model())
    assert "Pad:pad-crop" in entry_sites.written("neutral-op", crop[0].split("@", 1)[1], sigs)
    plain = [i.form for i in _walk(s, 12) if not variation.is_variation(i.form)][:6]
    assert any(f.startswith("neutral-op@") and f.endswith(":pad-crop") for f in plain), plain


def test_an_entry_s_name_spells_the_ops_it_matches():
    """A rule's observed effects name the node it replaced (FuseConvPad: the Conv); its name spells the Pad too."""
    from passcheck.hunt.entry_sites import named_ops

    assert named_ops("onnxscript:rule:FuseConvPad") == {"Conv", "Pad"}
    assert named_ops("onnxruntime:transformer:MatMulAddFusion") == {"MatMul", "Add"}  # no Mul inside MatMul
    assert named_ops("onnxscript:rule:FuseBatchNormIntoConvTranspose") == {"ConvTranspose"}


def test_an_entry_site_stays_a_candidate_of_the_pair_rule_once_its_rewrite_was_tried_under_the_entry(monkeypatch):
    """The pair rule takes (entry, spelling) pairs not tried yet; ``neutral-op`` tried under the Pad → Conv entry at
    the pad-zeros site left the crop, a site of its own, out of every later pair step (round-5c R38 command: 106
    items, the crop never drawn). An entry site not tried is a pair of its own."""
    from passcheck.hunt.scheduler import Scheduler, _MapView

    monkeypatch.setattr(Scheduler, "entry_ops", lambda self, b, p: frozenset({"Pad", "Conv"}))
    s = _scheduler(["pattern-ort/pad-conv"])
    base = next(b for b in s.bases if b.form == "common")
    key = "onnxscript:rule:FuseConvPad"
    view = object.__new__(_MapView)
    view.entries, view.ops = {key: ([base.id], [PASS])}, {key: frozenset({"Conv"})}
    view.by_base, view.by_pass, view.exhausted = {base.id: [key]}, {PASS: [key]}, set()
    s._map = view
    zeros = next(f for f in s.entry_sites(base, PASS) if f.endswith(":pad-zeros"))
    s.mark(Item(base.id, zeros, PASS))
    assert (key, "neutral-op") in s.pairs_tried
    s._only = "rewrite"
    item = view.untried(s, 5, PASS)
    assert item is not None and item.form.startswith("neutral-op@") and item.form.endswith(":pad-crop"), item


def test_an_entry_whose_name_spells_one_op_the_base_lacks_aims_at_every_site_writing_it():
    """M192: reshape-gemm-reshape holds Gemm and Reshape; an entry the pass runs spelling Gemm and Mul
    (``FusionGemmMul``) is not triggered by it, so no entry site aimed at a Mul, and ``neutral-op``'s ~100 sites
    on the base drew a Mul by 1 after the last Reshape (round 12d, R143) in none of its sampled forms. With the
    entry spelt, each of the four ``mul-one`` sites is an entry site, ranked first on the rewrite steps; an entry
    two ops away, or sharing no op with the base, aims at nothing."""
    from passcheck.hunt import entry_sites
    from passcheck.hunt.scheduler import Scheduler, _MapView
    from passcheck.hunt.space import bases

    slim = "onnxslim:slim"
    assert entry_sites.near_ops([frozenset({"Gemm", "Mul"})], {"Gemm", "Reshape"}) == {"Mul"}
    assert entry_sites.near_ops([frozenset({"Gemm", "Mul", "Add"}), frozenset({"Conv", "Pad"})], {"Gemm"}) == set()
    s = Scheduler(bases(["pattern-onnxscript-ort/reshape-gemm-reshape"], False), [slim], seed=1, variations=True)
    base = next(b for b in s.bases if b.form == "defaults-omitted")
    view = object.__new__(_MapView)
    view.entries, view.ops, view.by_base, view.by_pass, view.exhausted = {}, {}, {}, {slim: []}, set()
    s._map = view
    assert s.entry_sites(base, slim) == []
    view.spelt = {slim: [entry_sites.named_ops("onnxslim:fusion:FusionGemmMul")]}
    at = s.entry_sites(base, slim)
    assert "neutral-op@y:mul-one" in at and "neutral-op@y:mul-one" not in base.forms(1), at
    assert {f for f in at if f.endswith(":mul-one")} == {f"neutral-op@{v}:mul-one" for v in ("x", "r", "gm", "y")}
    s._only = "rewrite"
    assert s._balance(base.id, "neutral-op@y:mul-one", slim)[1] is True  # ranked as an entry site
