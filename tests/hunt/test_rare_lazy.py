"""Rare.offering (passcheck/hunt/vary_rare.py) builds the neighbours only of the bases the scheduler may draw for
the pass at hand: a base whose passes exclude it is dropped before its neighbours are built (stub bases count the
builds; the answer is the same list, in the same order, as filtering afterwards)."""

from __future__ import annotations

import dataclasses

from passcheck.hunt.vary_rare import Rare


@dataclasses.dataclass
class _Base:
    id: str
    offers: bool
    built: int = 0

    def ops(self):
        return ("Resize",)

    def variations(self, seed):
        self.built += 1
        return ["vary:value-floor-edge@#0:Resize"] if self.offers else ["vary:noise@#0:x"]


class _Other(_Base):
    def ops(self):
        return ("Relu",)


def _pool():
    resize = [_Base(f"resize-{i}:common", offers=i % 2 == 0) for i in range(4)]
    return resize, resize + [_Other(f"relu-{i}:common", offers=False) for i in range(40)]


def test_a_base_the_pass_does_not_draw_builds_no_neighbours():
    resize, pool = _pool()
    rare = Rare(pool, 8, 1)
    assert rare.meeting["value-floor-edge"] == resize
    for_pass = {"resize-0:common", "resize-1:common"}
    got = rare.offering("value-floor-edge", lambda b: b.id in for_pass)
    assert [b.id for b in got] == ["resize-0:common"]
    assert [b.built for b in resize] == [1, 1, 0, 0]  # the two the pass does not draw: nothing built
    assert [b.id for b in rare.offering("value-floor-edge")] == ["resize-0:common", "resize-2:common"]
    assert [b.built for b in resize] == [1, 1, 1, 1]  # each base's answer computed once
    rare.offering("value-floor-edge")
    assert [b.built for b in resize] == [1, 1, 1, 1]
