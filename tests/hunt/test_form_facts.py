"""What the scheduler's "tried" distinguishes, session 27 round 7h: the shape facts a base's form states
(passcheck/hunt/site_kind.py ``shape_facts``; IR.md "Static tensor shapes": a dim is a ``dim_value``, a ``dim_param``
or neither). onnxscript's ``collapse_slices`` reads two unknown dims as equal (round 7c's R61): a Slice rewrite tried
on ``slice-13.shape:common`` must leave the same rewrite new on ``:anonymous``, and a form stating the same facts as
one tried must not count as new. Real generated bases."""

from __future__ import annotations

import pytest

from passcheck.hunt.space import Base, Item, bases

PASS = "onnxscript:optimize"
REWRITE = "slice-defaults-explicit"


@pytest.fixture(scope="module")
def forms():
    return {b.form: b for b in bases(["generated/slice-13.shape"], generated=True)}


def test_the_forms_state_different_shape_facts(forms):
    from passcheck.hunt.site_kind import shape_facts

    got = {f: shape_facts(b.model()) for f, b in forms.items()}
    assert got["common"].startswith("in=v out=v"), got
    assert got["symbolic"].startswith("in=p "), got
    assert got["anonymous"].startswith("in=u out=u"), got


def test_a_rewrite_tried_on_the_common_form_is_still_new_on_the_anonymous_one(forms):
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(list(forms.values()), [PASS], seed=1)
    common, anonymous = (Item(forms[f].id, REWRITE, PASS) for f in ("common", "anonymous"))
    assert {t[:4] for t in s.triples(common)} == {t[:4] for t in s.triples(anonymous)}
    s.mark(common)
    assert s.triples(anonymous) - s.tried == s.triples(anonymous)


def test_a_form_stating_the_same_facts_is_not_new(forms):
    """A second form of the case whose model states what ``common`` states (here its very model under another form
    name) adds no triple once ``common`` was tried: the search is not multiplied by forms' names."""
    from passcheck.hunt.scheduler import Scheduler

    common = forms["common"]
    twin = Base(common.case, "twin", _model=common.model())
    s = Scheduler([common, twin], [PASS], seed=1)
    s.mark(Item(common.id, REWRITE, PASS))
    assert not s.triples(Item(twin.id, REWRITE, PASS)) - s.tried
