"""The group neighbour is a rare kind (passcheck/hunt/vary_rare.py ``PRECONDITIONS``): it needs a Conv /
ConvTranspose whose channel counts share a divisor (13 generated cases), so a sample of 8 bases per step meets one
about once in a hundred steps over the generated set, and the unpinned 3-minute hunt of round 6d never drew it.
With its precondition declared, the first variation step of a pass takes it. Real generated bases."""

from __future__ import annotations

import pytest

from passcheck.hunt import variation
from passcheck.hunt.space import bases

UNARY = ("relu", "neg", "abs", "sigmoid", "tanh", "exp", "log", "sqrt", "floor", "ceil", "reciprocal", "softsign")


@pytest.fixture(scope="module")
def pool():
    """The channels-even Conv / ConvTranspose bases among some 500 unary ones: fewer than one per sample of 8."""
    conv = [b for b in bases(["generated/conv*"], generated=True) if "channels-even" in b.id]
    other = bases([f"generated/{o}-*" for o in UNARY], generated=True)
    assert conv and len(conv) * 8 < len(conv) + len(other)
    return sorted(conv + other, key=lambda b: b.id)


def test_group_is_rare_and_offered_by_the_channels_even_bases(pool):
    from passcheck.hunt.vary_rare import Rare

    rare = Rare(pool, 8, 1)
    assert "group" in rare.meeting
    offering = {b.id for b in rare.offering("group")}
    assert offering and all("channels-even" in b for b in offering), sorted(offering)


def test_the_first_variation_step_of_a_pass_draws_the_group_neighbour(pool):
    """Seed 3: since each neighbour kind samples its own sites (round 8e, M71), seed 1's probes give default-fed an
    observed precondition (Add, BatchNormalization, Conv) that 24 bases of this pool meet, fewer than group's 34, so
    the first rare item is a default-fed one; at seeds 3-5 both meet 34 and the declared kind comes first."""
    from passcheck.hunt.scheduler import VARIATION_EVERY, Scheduler

    s = Scheduler(pool, ["onnxscript:optimize"], seed=3, variations=True)
    item = s.next(VARIATION_EVERY - 1)
    assert item is not None and variation.kind(item.form) == "vary:group", item
