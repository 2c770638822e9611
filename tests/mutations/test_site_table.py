"""Every rewrite's site labels in one model kept on disk (passcheck.mutations.listing.site_table, read by the hunt's
compose.sites_of), and the listing asking a rewrite declared ``lists`` for its sites instead of building its copy:
both give what computing gives, a planted rewrite that breaks the contract is caught, and nothing is kept when a
worker died."""

from __future__ import annotations

import dataclasses
import json

import pytest

from passcheck.cases import registry
from passcheck.errors import WorkerDied
from passcheck.hunt import compose
from passcheck.mutations import _base, listing
from passcheck.mutations import forms as hforms
from passcheck.mutations.registry import REWRITES
from tests._shared import forms_cache_on

CASE = "pattern-ort-fusion/focus-space-to-depth"  # several rewrites apply (the listing cache's test case)
#: Bases of several shapes: graph inputs read once and twice, initializers, reductions, broadcasting.
SAMPLE = ("axes/*", "broadcast/*", "pattern-ort-fusion/*")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The forms cache on, in a folder of its own; ``calls`` counts the site tables computed."""
    return forms_cache_on(tmp_path, monkeypatch, "site_table")


def _model():
    return hforms.named(registry().get(CASE).build("common"))


def _computed(model, monkeypatch, only=None):
    with monkeypatch.context() as m:
        m.setenv(listing.SWITCH, "0")
        return compose.sites_of(model, only)


def test_a_site_table_read_from_the_cache_equals_the_computed_one(cache, monkeypatch):
    folder, calls = cache
    model = _model()
    want = _computed(model, monkeypatch)
    assert calls == [1] and not folder.exists()  # off: computed, nothing written
    assert any(want.values()) and not all(want.values())  # the premise: some rewrites have sites here, not all
    cold = compose.sites_of(model)
    (entry,) = folder.glob("*/*.sites.json")
    assert len(calls) == 2 and cold == want
    warm = compose.sites_of(model)
    assert len(calls) == 2 and warm == want  # read back
    assert list(json.loads(entry.read_text(encoding="utf-8"))) == list(want)  # registry order
    some = frozenset(list(want)[:3])
    assert compose.sites_of(model, some) == {r: want[r] for r in want if r in some} and len(calls) == 2


def test_a_pinned_rewrite_set_reads_the_table_and_never_writes_one(cache, monkeypatch):
    folder, calls = cache
    model = _model()
    some = frozenset(list(_computed(model, monkeypatch))[:3])
    got = compose.sites_of(model, some)
    assert set(got) == some and not list(folder.glob("*/*.sites.json"))  # a partial table is not kept
    assert got == _computed(model, monkeypatch, some)


def test_a_table_during_which_a_worker_died_is_not_kept(cache):
    folder, calls = cache
    model = _model()

    def dies(model, only=None):
        raise WorkerDied("killed by SIGKILL")

    with pytest.MonkeyPatch.context() as m:
        m.setitem(REWRITES, "test-dies", dataclasses.replace(next(iter(REWRITES.values())), id="test-dies", edit=dies))
        first = compose.sites_of(model)
        second = compose.sites_of(model)
    assert first["test-dies"] == frozenset() and first == second
    assert len(calls) == 2 and not list(folder.glob("*/*.sites.json"))


def test_a_changed_rewrite_misses_the_table(cache):
    folder, calls = cache
    model = _model()
    before = compose.sites_of(model)
    rid = next(r for r, s in before.items() if s)
    never = dataclasses.replace(REWRITES[rid], edit=lambda model, only=None: [])  # the same id, another behaviour
    with pytest.MonkeyPatch.context() as m:
        m.setitem(REWRITES, rid, never)
        assert compose.sites_of(model)[rid] == frozenset()
    assert len(calls) == 2 and len(list(folder.glob("*/*.sites.json"))) == 2  # another key


def _listed(rewrite, model):
    labels: dict[str, list[str]] = {}
    try:
        return hforms._applies(rewrite, model, "r", labels), labels.get("r")
    except Exception as exc:  # noqa: BLE001 - compared as what was raised
        return type(exc).__name__, None


def _built(rewrite, model):
    try:
        done = rewrite.apply(model)
    except Exception:  # noqa: BLE001 - a rewrite that raises applies nowhere (forms._applies)
        return False, None
    return done is not None, None if done is None else list(done[1].nodes)


def test_a_listing_rewrite_s_sites_are_the_labels_its_edit_changes():
    """The listing asks a rewrite declared ``lists`` (without ``alternatives``) for its sites instead of building its
    copy (forms._applies): the contract it relies on (_base.Rewrite's ``lists``), on every base of SAMPLE."""
    ids = [r for r, x in REWRITES.items() if x.lists and not x.alternatives]
    assert "deep-identity-chain" in ids and len(ids) >= 5
    models = [c.build(f) for c in registry().select(list(SAMPLE)) for f in c.forms]
    seen = 0
    for rid in ids:
        for model in models:
            listed, built = _listed(REWRITES[rid], model), _built(REWRITES[rid], model)
            assert listed == built, (rid, listed, built)
            seen += bool(built[0])
    assert seen > len(ids)  # the premise: they apply here


def test_a_listing_rewrite_whose_listing_answer_differs_is_caught():
    """Planted: a rewrite declared ``lists`` whose edit under LISTING names a site it does not change."""
    real = REWRITES["deep-identity-chain"]

    def lies(model, only=None):
        return ["nowhere"] if _base.LISTING.get() else real.edit(model, only)

    planted = dataclasses.replace(real, id="test-lies", edit=lies)
    model = registry().get(CASE).build("common")
    assert _listed(planted, model) != _built(planted, model)
