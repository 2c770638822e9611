"""The rare kinds' offering asked of the kind's own candidates first (round 10e, M107; ``variation.may_offer``,
``vary_rare.Rare.offering``): the same bases offer the kind as by every neighbour listed, on real generated bases
(Resize / Upsample for ``value-floor-edge``, Conv / ConvTranspose for ``group``)."""

from __future__ import annotations

import random

import pytest

from passcheck.hunt import variation
from passcheck.hunt.space import bases


@pytest.fixture(scope="module")
def pool():
    return bases(["optional-input/resize-*", "generated/resize-1[03]*", "generated/conv-*", "generated/relu-14*"], True)


@pytest.mark.parametrize("kind", ["value-floor-edge", "group"])
def test_the_kinds_own_candidates_answer_as_the_full_listing(pool, kind):
    tail = f"vary:{kind}@"
    answers = []
    for b in pool:
        full = any(f.startswith(tail) for f in variation.neighbours(b.model(), random.Random(0), b.case.bindings))
        quick = variation.may_offer(b.model(), kind)
        assert quick is not None
        assert quick == full, (b.id, quick, full)
        answers.append(full)
    assert any(answers) and not all(answers), answers  # both answers occur on the pool


def test_the_offering_bases_are_those_the_full_listing_gives(pool):
    from passcheck.hunt import vary_rare

    rare = vary_rare.Rare(pool, 1, seed=1)
    for kind in ("value-floor-edge", "group"):
        tail = f"vary:{kind}@"
        want = [b.id for b in rare.meeting.get(kind, ()) if any(f.startswith(tail) for f in b.variations(1))]
        assert [b.id for b in rare.offering(kind)] == want and want, kind


def test_another_kind_is_left_to_the_full_listing(pool):
    assert variation.may_offer(pool[0].model(), "fanout-copy") is None
    assert pool[0].id == f"{pool[0].case.id}:{pool[0].form}"  # spelt once, the same text
