"""The empty Concat parts (:mod:`passcheck.mutations.concat_empty`) in a hunt: a pass whose data propagation
gives up on an empty first part (what onnx 1.16 / 1.17 do, docs/recall.md R21) is found on those spellings and
the finding reproduces (the hunt pinned to them with ``--rewrite``). Real onnx 1.23 data propagation is not
blamed on them."""

from __future__ import annotations

from pathlib import Path

from tests._inproc import planted
from tests.hunt._pinned_hunt import pinned_hunt

PLANTED = Path(__file__).with_name("planted_concat_empty.py")
P = planted(PLANTED)


def _hunt(tmp_path, pass_id: str) -> tuple:
    return pinned_hunt(tmp_path, PLANTED, P.CASE_ID, pass_id, "concat-empty-*", "40items")


def test_a_pass_losing_data_propagation_on_an_empty_first_part_is_found_there(tmp_path):
    r, found = _hunt(tmp_path, P.PASS_ID)
    assert r.returncode == 1, r.stdout + r.stderr
    ours = {rw for kind, rw in found if kind == "less-precise" and rw.split("+")[-1].startswith("concat-empty-")}
    assert ours, sorted(found)
    assert all(found[("less-precise", rw)]["reproduces"] for rw in ours)


def test_real_data_propagation_is_not_blamed_for_an_empty_part(tmp_path):
    _, found = _hunt(tmp_path, "onnx:infer-shapes-data-prop")
    assert not [rw for _, rw in found if "concat-empty-" in rw], sorted(found)
