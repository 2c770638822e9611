"""Units of a generic neighbour kind (round 8e, M68; passcheck/hunt/neighbour_units.py, ``Preconditions.units``,
``Scheduler._unit_item``). ``input-constant`` applies to every base with a fed static graph input, so it has no op
precondition and its site kind was ``*``: the element type of the input it freezes never steered it, and a hunt over
~11,000 bases froze FLOAT and INT64 inputs while a folder's STRING path waited (docs/recall.md R49). Its units are
the rank and element type of what it changes, read off the probes; a unit step offers the untried unit of the element
type the pass's items have held least. Real generated bases (the ``variant.elem.t.string`` cases read STRING graph
inputs; their ``dtype:string`` tag names them without building them)."""

from __future__ import annotations

import pytest

from passcheck.hunt import variation
from passcheck.hunt.space import Item, bases

UNARY = ("relu", "neg", "abs", "sigmoid", "tanh", "exp", "log", "sqrt", "floor", "ceil")
PASS = "onnxscript:optimize"
KIND = "input-constant"


@pytest.fixture(scope="module")
def pool():
    strings = bases(["generated/*.variant.elem.t.string"], generated=True)
    other = bases([f"generated/{o}-*" for o in UNARY], generated=True)
    return sorted(strings + other, key=lambda b: b.id)


@pytest.fixture(scope="module")
def pre(pool):
    from passcheck.hunt.preconditions import Preconditions

    return Preconditions.of(pool, 1)


def test_a_generic_neighbours_units_are_the_types_it_changes_on_the_probes(pre):
    from passcheck.hunt.neighbour_units import elems

    units = pre.units.get(KIND)
    assert units, sorted(pre.units)
    assert any(elems(u) == {"STRING"} for u in units) and any(elems(u) == {"FLOAT"} for u in units), sorted(units)
    assert all(variation.kind(f) == f"vary:{KIND}" for got in units.values() for _, f in got)


def _unit_step(k: int) -> int:
    from passcheck.hunt.scheduler import UNIT_EVERY, VARIATION_EVERY

    return VARIATION_EVERY * (UNIT_EVERY * k + UNIT_EVERY - 1) + VARIATION_EVERY - 1


def test_the_unit_step_freezes_the_element_type_the_pass_has_held_least(pool, pre):
    """Every other element type frozen once by the pass's items: the first unit step freezes a STRING input; the
    variation step before it is no unit step."""
    from passcheck.hunt import site_kind
    from passcheck.hunt.neighbour_units import elems, site_values, unit
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(pool, [PASS], seed=1, variations=True, vary_kinds=[KIND])
    others = {e for u in pre.units[KIND] for e in elems(u)} | {
        t[6:].upper() for b in pool for t in b.case.tags if t.startswith("dtype:")
    }
    others -= {"STRING"}
    s._kind_elems[PASS, KIND] = dict.fromkeys(others, 1)  # the kind froze every other type once
    s._only = "vary"
    assert s._unit_item(PASS, _unit_step(0) - 4) is None
    item = s._unit_item(PASS, _unit_step(0))
    assert item is not None and variation.kind(item.form) == f"vary:{KIND}", item
    base = s.by_id[item.base]
    assert "STRING" in elems(unit(base.model(), item.form, site_kind.types(base.model()))), item
    # of the unit's sites the widest: every input of its base frozen (a folder computes a node only when all its
    # inputs are known), not one input beside a fed one
    widths = {(b, f): len(site_values(s.by_id[b].model(), f)) for b, f in s.unit_sites(KIND, "STRING")}
    assert len(site_values(base.model(), item.form)) == max(widths.values()) > 1, (item, widths)
    assert s.next(_unit_step(0)) == item  # the step takes it before its other rules


def test_a_neighbour_item_marks_its_unit_and_the_type_it_held(pool):
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(pool, [PASS], seed=1, variations=True)
    base = next(b for b in pool if b.id.startswith("generated/identity-13.variant.elem.t.string"))
    form = next(f for f in base.variations(1) if variation.kind(f) == f"vary:{KIND}")
    s.mark(Item(base.id, form, PASS))
    assert any(k == KIND and "STRING" in u for k, u in s.units_on[PASS]), s.units_on
    assert s.held(PASS).get("STRING") == 1
