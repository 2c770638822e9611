"""Compositions, session 26: a ``--rewrite`` pin pins the rewrite half of compositions, and
``compose.compositions`` stops asking :func:`~passcheck.hunt.compose.carries` once the carrying places are filled
(passcheck/hunt/compose.py). Real case models, real shape inference."""

from __future__ import annotations

import random

from passcheck.hunt import compose, variation
from passcheck.hunt.space import Item
from passcheck.mutations import forms as hforms

DOUBLE = "vary:elem-double@graph"


def _base(case: str, form: str = "common"):
    from passcheck.cases import registry
    from passcheck.hunt.space import Base

    return Base(registry().get(case), form)


def test_compositions_stop_asking_carries_once_the_carrying_places_are_filled(monkeypatch):
    """reshape-from-shape's ``elem-double@graph`` touches 33 rewrites, 8 of them carrying the double type into
    a value of a type the neighbour lacks; the places the carrying ones can take (:func:`compose.carry_cap`) fill
    after a few calls. Every placed carrying form does carry, as many are placed as a full walk places, with fewer
    calls (with the walk not stopped, every touched rewrite is asked)."""
    base = _base("pattern-ort-fusion/reshape-from-shape").model()
    named = hforms.named(base)
    neighbour = variation.build(base, DOUBLE, labelled=True)[0]  # compose's label space
    calls: list[str] = []
    real = compose.carries
    monkeypatch.setattr(compose, "carries", lambda b, v, r, *a: calls.append(r) or real(b, v, r, *a))
    for seed in range(1, 4):
        calls.clear()
        carried: set[str] = set()
        fresh, touched = compose.compositions(base, DOUBLE, random.Random(seed), carried=carried)
        asked = list(calls)
        hit = compose.sites_of(named)
        now, moved = compose.sites_of(neighbour), compose.changed(named, neighbour)
        every = [  # the touched rewrites a full walk asks about: one site each, sites on both B and V, moved
            rid
            for rid, sites in now.items()
            if not [s for s in sites if s not in hit.get(rid, ())]
            and any(moved & set(compose._PIECES.split(s)) for s in sites if s in hit.get(rid, ()))
        ]
        assert len(every) >= 20, every
        assert 0 < len(asked) < len(every), (seed, len(asked), len(every))
        assert carried and all(real(named, neighbour, compose.split(f)[1]) for f in carried), carried
        assert len(carried) == min(compose.carry_cap(len(fresh)), len(touched)), (fresh, touched, carried)


def test_a_rewrite_pin_pins_the_rewrite_half_of_compositions():
    """Pinned to ``empty-optional-outputs``, the compositions of a LayerNormalization's ``input-constant`` neighbour
    are that rewrite at the node; unpinned, its places go to the rewrites the neighbour opens (initializer
    rewrites), and the scheduler's filter after the sampling left no composed candidate (round 5a)."""
    from passcheck.hunt.scheduler import COMPOSE_EVERY, Scheduler

    case = "generated/layernormalization-17.axis"
    pinned = _base(case)
    vform = next(v for v in pinned.variations(1) if v.startswith("vary:input-constant@"))
    s = Scheduler(
        [pinned],
        ["ort:basic"],
        seed=1,
        variations=True,
        compose=True,
        vary_kinds=["input-constant"],
        rewrites=["empty-optional-outputs"],
    )
    s.mark(Item(pinned.id, vform, "ort:basic"))
    item = s.next(COMPOSE_EVERY - 3)
    assert item is not None and compose.is_composed(item.form), item
    assert compose.split(item.form)[1].startswith("empty-optional-outputs@"), item
    got = pinned.compositions(1, vform, frozenset({"empty-optional-outputs"}))
    assert got and all(compose.split(f)[1].startswith("empty-optional-outputs@") for f in got), got
