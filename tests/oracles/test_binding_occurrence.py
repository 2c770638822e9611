"""``passcheck.oracles.binding.Occurrence`` is a value: immutable and hashable, so an occurrence recorded
in a :class:`BindingMap` cannot change under it and equal occurrences collapse in a set."""

from __future__ import annotations

import dataclasses

import pytest

from passcheck.oracles.binding import PRECONDITION, Occurrence


def test_an_occurrence_is_an_immutable_hashable_value():
    occ = Occurrence("N", "x", 0, 3, PRECONDITION)
    with pytest.raises(dataclasses.FrozenInstanceError):
        occ.size = 4
    assert {occ, Occurrence("N", "x", 0, 3, PRECONDITION)} == {occ}
