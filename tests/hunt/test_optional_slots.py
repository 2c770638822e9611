"""The optional inputs a node gives, in the site kind (session 27 round 7h; passcheck/hunt/site_kind.py
``optional_slots``). Operators.md LayerNormalization-17: B is optional, omitted by leaving it out or written ``""``;
onnxruntime's AttentionFusion read B by position (round 7a's R53), so a rewrite tried at a LayerNormalization with
B given must leave the same rewrite new where B is omitted. ``extra-readers`` has one site on these bases (the graph
output Y), so its all-at-once form takes that site's kind. Real generated bases, real shape inference."""

from __future__ import annotations

import pytest

from passcheck.hunt.space import Item, bases

PASS = "ort:extended"
REWRITE = "extra-readers"


@pytest.fixture(scope="module")
def forms():
    return {b.form: b for b in bases(["generated/layernormalization-17.optional-input"], generated=True)}


def test_the_slots_read_off_the_schema(forms):
    from passcheck.hunt.site_kind import types

    got = {f: types(b.model()) for f, b in forms.items()}
    # the optional outputs Mean and InvStdDev (omitted on every form) follow ``>`` since round 8e
    assert got["common"]["#0:LayerNormalization"].endswith(";B->Mean-,InvStdDev-"), got["common"]
    assert got["explicit-default"]["#0:LayerNormalization"].endswith(";B+>Mean-,InvStdDev-"), got["explicit-default"]
    assert got["trailing-empty"]["#0:LayerNormalization"].endswith(";B0>Mean-,InvStdDev-"), got["trailing-empty"]
    assert got["common"]["Y"].endswith(";B->Mean-,InvStdDev-")  # a value carries its producer's slots


def test_a_rewrite_tried_where_b_is_given_is_still_new_where_it_is_omitted(forms):
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(list(forms.values()), [PASS], seed=1)
    given, omitted, empty = (Item(forms[f].id, REWRITE, PASS) for f in ("explicit-default", "common", "trailing-empty"))
    s.mark(given)
    assert s.triples(omitted) - s.tried == s.triples(omitted)
    assert s.triples(empty) - s.tried == s.triples(empty)
    s.mark(omitted)
    assert not s.triples(Item(forms["common"].id, REWRITE, PASS)) - s.tried


def test_an_op_without_optional_inputs_keeps_its_kind_text():
    """Relu has no optional input: its node's and output's text is the rank and element type alone, as before."""
    from passcheck.hunt.site_kind import types

    b = next(b for b in bases(["generated/relu-14.shape"], generated=True) if b.form == "common")
    assert all(";" not in v for v in types(b.model()).values())
