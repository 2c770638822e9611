"""enumerate_forms without single-site forms (``max_sites=0``, what a hunt base asks for: its single sites come from
``site_kind``) reads no rewrite's sites: listing them cost a second edit of the model per applicable rewrite."""

from __future__ import annotations

import random

import pytest

from passcheck.cases import registry
from passcheck.mutations import forms as hforms

CASE = "pattern-ort-fusion/focus-space-to-depth"  # a base where several rewrites have more than one site


def test_no_single_sites_asked_for_reads_no_sites(monkeypatch):
    model = registry().get(CASE).build("common")
    with_sites = hforms.enumerate_forms(model, random.Random(1))
    assert any("@" in f for f in with_sites)  # the premise: rewrites with several sites apply here
    wanted = hforms.enumerate_forms(model, random.Random(1), max_sites=0)
    monkeypatch.setattr(hforms, "sites", lambda *a: pytest.fail("sites were read for a sample of 0"))
    rng = random.Random(1)
    got = hforms.enumerate_forms(model, rng, max_sites=0)
    assert got == wanted and not any("@" in f for f in got)
    assert {f for f in with_sites if "@" not in f and "+" not in f} <= set(got)  # every rewrite that applies
