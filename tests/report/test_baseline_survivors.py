"""Baseline matching and writing where mutation showed no test ran the line (bench/results/mutation.jsonl):
a cell's unchecked parts only match when it has some, reset forgets every earlier match, an unreadable
baseline being rewritten keeps no reasons, and an id seen in every listed environment needs no ``envs``."""

from __future__ import annotations

import json

from passcheck.records import CellResult, Finding
from passcheck.report import baseline


def _finding(env: str = "local") -> Finding:
    return Finding("wrong-result", "numeric", "c", "common", "ort:basic", "output 'y' differs", env=env)


def test_an_entry_naming_every_id_matches_no_cell_without_findings_or_unchecked_parts():
    every = baseline.Known("*", "all of them")
    assert not every.matches_cell(CellResult("c", "common", "ort:basic", "ok"))
    assert every.matches_cell(CellResult("c", "common", "ort:basic", "ok", unchecked={"output 'y'": "no kernel"}))


def test_reset_forgets_every_earlier_match_of_every_finding():
    f = _finding()
    f.expected, f.reason = True, "known upstream"
    cell = CellResult("c", "common", "ort:basic", "expected", findings=[f])
    cell.unchecked_known = "known"
    baseline.reset([cell])
    assert (f.expected, f.reason, cell.unchecked_known) == (False, "", "")


def test_an_unreadable_baseline_being_rewritten_keeps_no_entries(tmp_path):
    path = tmp_path / "known.json"
    path.write_text("{not json")
    assert baseline.previous_entries(path) == []


def test_an_id_seen_in_every_listed_environment_and_more_needs_no_envs():
    findings = [_finding("a"), _finding("b"), _finding("z")]  # z: an environment the matrix does not list
    (entry,) = json.loads(baseline.from_findings(findings, environments=["a", "b"]))["known"]
    assert "envs" not in entry
    (entry,) = json.loads(baseline.from_findings(findings[:1], environments=["a", "b"]))["known"]
    assert entry["envs"] == ["a"]


def test_baseline_entries_and_their_statuses_are_values_two_runs_can_be_compared_by(tmp_path):
    """Mutants killed: ``frozen=True`` → False on ``Known`` and ``EntryStatus``, which made the entries a
    run reports unmatched (``Report.unmatched_known``) and the statuses of ``status()`` unhashable and
    writable: what two runs fixed can no longer be compared as sets, and a caller could edit a shared entry."""
    import dataclasses

    import pytest

    path = tmp_path / "known.json"
    path.write_text(json.dumps({"known": [{"id": "a", "reason": "r", "envs": ["x"]}, {"id": "b", "reason": "r"}]}))
    entries = baseline.load(path)
    ran = [CellResult("c", "common", "ort:basic", "ok", env="x")]
    first, second = baseline.apply(ran, entries), baseline.apply(ran, baseline.load(path))
    assert set(first) == set(second) == set(entries)  # equal entries are one value, whatever run read them
    statuses = baseline.status(ran, entries, ["x"])
    assert len(set(statuses) | set(baseline.status(ran, entries, ["x"]))) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        first[0].reason = "edited"
    with pytest.raises(dataclasses.FrozenInstanceError):
        statuses[0].fixed = ()
