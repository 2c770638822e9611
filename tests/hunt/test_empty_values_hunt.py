"""The empty values of :mod:`passcheck.mutations.empty_values` in a hunt: a pass whose data propagation stops at
any node an empty value enters (what onnx 1.16 / 1.17 do at a Concat, docs/recall.md R21 / R11) is found on the
empty-part spellings and the findings reproduce (the hunt pinned to them with ``--rewrite``); real onnx 1.23
strict data propagation, which carries an empty value through every propagator, is not blamed on them."""

from __future__ import annotations

from pathlib import Path

from tests._inproc import planted
from tests.hunt._pinned_hunt import pinned_hunt

PLANTED = Path(__file__).with_name("planted_empty_values.py")
P = planted(PLANTED)


def _hunt(tmp_path, pass_id: str):
    return pinned_hunt(tmp_path, PLANTED, P.CASE_ID, pass_id, "empty-part-*", "30items")


def test_a_pass_stopping_at_an_empty_value_is_found_on_the_empty_parts(tmp_path):
    r, found = _hunt(tmp_path, P.PASS_ID)
    assert r.returncode == 1, r.stdout + r.stderr
    ours = {rw for kind, rw in found if kind == "less-precise" and rw.startswith("empty-part-")}
    assert len(ours) >= 3, sorted(found)
    assert all(found[("less-precise", rw)]["reproduces"] for rw in ours)


def test_real_strict_data_propagation_is_not_blamed_for_an_empty_part(tmp_path):
    _, found = _hunt(tmp_path, "onnx:infer-shapes-data-prop-strict")
    assert not [rw for _, rw in found if "empty-part-" in rw], sorted(found)
