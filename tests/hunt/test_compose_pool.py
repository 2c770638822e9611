"""A composition step looks only at bases with a neighbour tried under the pass (passcheck/hunt/scheduler.py
``_next_on``): a composed form is a rewrite of a neighbour already tried, so a base without one has none, and
listing every base's neighbours to learn that cost an unpinned hunt over the generated set (11,156 bases) its whole
3-minute budget (6 items before, 344 after). Real case models, real neighbours."""

from __future__ import annotations

import pytest

from passcheck.hunt import compose
from passcheck.hunt.space import Item

PASS = "ort:basic"


@pytest.fixture(scope="module")
def bases():
    from passcheck.hunt.space import bases as all_bases

    out = all_bases(["generated/relu-*", "generated/neg-*"], generated=True)[:24]
    out += all_bases(["pattern-ort-fusion/reshape-from-shape"], generated=False)[:1]
    return out


def _counted(monkeypatch):
    from passcheck.hunt import space

    seen: list[str] = []
    real = space.Base.variations

    def variations(self, seed):
        seen.append(self.id)
        return real(self, seed)

    monkeypatch.setattr(space.Base, "variations", variations)
    return seen


def test_a_composition_step_with_no_neighbour_tried_lists_no_base_s_neighbours(bases, monkeypatch):
    from passcheck.hunt.scheduler import COMPOSE_EVERY, Scheduler

    seen = _counted(monkeypatch)
    s = Scheduler(bases, [PASS], seed=1, variations=True, compose=True)
    item = s.next(COMPOSE_EVERY - 3)
    assert item is not None and not compose.is_composed(item.form), item
    assert seen == [], f"{len(seen)} bases' neighbours listed on a composition step with none tried"


def test_a_base_with_a_neighbour_tried_still_gets_its_composed_item(bases, monkeypatch):
    from passcheck.hunt.scheduler import COMPOSE_EVERY, Scheduler

    s = Scheduler(bases, [PASS], seed=1, variations=True, compose=True)
    target = bases[-1]
    for v in target.variations(1):
        s.mark(Item(target.id, v, PASS))
    seen = _counted(monkeypatch)
    item = s.next(COMPOSE_EVERY - 3)
    assert item is not None and compose.is_composed(item.form) and item.base == target.id, item
    assert set(seen) == {target.id}, sorted(set(seen))
