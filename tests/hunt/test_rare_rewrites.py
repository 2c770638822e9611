"""A rewrite's or neighbour's precondition read off what it matches (passcheck/hunt/preconditions.py), the rare
rewrite units it gives (passcheck/hunt/rare_rewrites.py) and the element type in the site kind
(passcheck/hunt/site_kind.py). ``list-attributes-as-tensor`` applies where a schema pairs a list attribute with a
TENSOR sibling (Operators-ml.md LabelEncoder-4, TreeEnsemble*-3): a few dozen of ~11,000 generated bases, and on a
LabelEncoder writing strings it writes a STRING tensor (round 6a's R41 needed that one). Real generated bases."""

from __future__ import annotations

import pytest

from passcheck.hunt.space import Item, bases

UNARY = ("relu", "neg", "abs", "sigmoid", "tanh", "exp", "log", "sqrt", "floor", "ceil", "softsign")
LAAT = "list-attributes-as-tensor"
PASS = "ort:basic"


@pytest.fixture(scope="module")
def pool():
    """The LabelEncoder / TreeEnsemble bases and the Slice ones among some 500 unary ones. LabelEncoder's
    ``string-keys`` variant (M386, session 40) is left out: its bases would make the rewrite meet more than an
    eighth of this small pool, so not rare here (the hunt's pool is the whole generated set)."""
    ml = [
        b
        for b in bases(["generated/ml.labelencoder-*", "generated/ml.treeensemble*"], generated=True)
        if ".string-keys" not in b.id
    ]
    other = bases([f"generated/{o}-*" for o in UNARY] + ["generated/slice-*"], generated=True)
    return sorted(ml + other, key=lambda b: b.id)


@pytest.fixture(scope="module")
def pre(pool):
    from passcheck.hunt.preconditions import Preconditions

    return Preconditions(pool, 1)


def test_a_rewrites_precondition_is_the_ops_its_sites_touch_on_the_probes(pre):
    need = pre.rewrites.get(LAAT)
    assert need and "LabelEncoder" in need
    assert need <= {"LabelEncoder", "TreeEnsembleRegressor", "TreeEnsembleClassifier"}
    assert "deep-identity-chain" not in pre.rewrites  # generic: it applies to every probe
    assert pre.neighbours.get("int-sentinel") == frozenset({"Slice"})  # a neighbour's, read the same way


def test_the_probes_hold_the_oldest_and_newest_schema_of_an_op(pool):
    """LabelEncoder-2 has no TENSOR attributes; LabelEncoder-4 has: one probe per op would miss the rewrite."""
    from passcheck.hunt.preconditions import probes

    ids = {b.id for b in probes(pool)}
    assert any(i.startswith("generated/ml.labelencoder-2.") for i in ids)
    assert any(i.startswith("generated/ml.labelencoder-4.") for i in ids)


def test_the_rare_rewrite_has_an_int64_and_a_string_unit(pool, pre):
    from passcheck.hunt.rare_rewrites import RareRewrites

    rare = RareRewrites(pool, 8, 1, pre)
    assert LAAT in rare.meeting
    units = rare.units(LAAT)
    assert any("STRING" in e for e in units) and any("STRING" not in e for e in units), units


def test_the_site_kind_tells_a_string_labelencoder_from_an_int64_one():
    """The same node (one LabelEncoder, rank-2 INT64 input) writing INT64 values or STRING ones: two site kinds."""
    from passcheck.hunt import site_kind
    from passcheck.mutations.sites import site_signatures

    got = []
    for cid in ("generated/ml.labelencoder-4.shape", "generated/ml.labelencoder-4.shape.string-values"):
        model = next(b for b in bases([cid], generated=True) if b.form == "common").model()
        got.append(site_kind.kind(LAAT, "#0:LabelEncoder", site_signatures(model), site_kind.types(model)))
    assert got[0] != got[1] and "STRING" in got[1] and "STRING" not in got[0], got


def test_rewrite_steps_try_the_rare_units_and_the_string_one_early(pool):
    """The rare share takes the first rewrite step, then one in RARE_REWRITE_EVERY plain rewrite items; the rare
    rewrites with no unit tried come first, rarest first, and of a rewrite's units the one holding the element type
    the pass's plain rewrite items tried least: after FLOAT and INT64 sites (a hunt's first items are mostly those),
    LAAT's STRING unit is drawn among the first rare items."""
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(pool, [PASS], seed=1, variations=True)
    s._only = "rewrite"
    s._rare_elems[PASS] = {"FLOAT": 5, "INT64": 5}
    first = s._rare_rewrite_item(PASS, 0)
    assert first is not None and first.key in s._rare_picked
    units = []
    item = first
    for step in range(12):
        if item is None:
            break
        s.mark(item)
        units.append(s.unit_of(item, item.form.split("@")[0]))
        s._firsts[PASS][1] += 3  # three plain rewrite items between two rare ones
        item = s._rare_rewrite_item(PASS, step + 1)
    assert len(units) == len(set(units)), units  # each unit once
    assert any(u[0] == LAAT and "STRING" in u[1] for u in units), units


def test_the_share_waits_for_the_plain_rewrite_items(pool):
    from passcheck.hunt.scheduler import RARE_REWRITE_EVERY, Scheduler

    s = Scheduler(pool, [PASS], seed=1, variations=True)
    s._only = "rewrite"
    s.mark(s._rare_rewrite_item(PASS, 0))
    assert s._rare_rewrite_item(PASS, 1) is None
    s._firsts[PASS][1] += RARE_REWRITE_EVERY
    assert isinstance(s._rare_rewrite_item(PASS, 2), Item)
