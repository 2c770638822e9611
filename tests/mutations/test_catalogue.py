"""The spelling catalogue stays in step with the registry and with docs/spellings.md."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from passcheck.mutations import REWRITES
from passcheck.mutations.catalogue import Freedom, freedoms, markdown, problems

#: The checkout these tests belong to (the package may be installed elsewhere, non-editable).
ROOT = Path(__file__).resolve().parents[2]


def test_catalogue_has_no_problems():
    assert problems(root=ROOT) == []


def test_every_rewrite_has_a_row_and_every_row_a_real_rewrite():
    named = {rid for f in freedoms() for rid in f.rewrites}
    assert set(REWRITES) <= named and named <= set(REWRITES)


def test_a_rewrite_without_a_row_is_reported(monkeypatch):
    rows = [f for f in freedoms() if "reverse-topo-order" not in f.rewrites]
    assert "rewrite 'reverse-topo-order' has no catalogue row" in problems(rows)


def test_a_row_naming_a_missing_rewrite_or_no_reason_is_reported():
    ghost = Freedom("ghost", "graphs", "IR.md §Graphs", "a row for a rewrite that does not exist", ("no-such-rewrite",))
    bare = Freedom("bare", "graphs", "IR.md §Graphs", "a row with neither a rewrite nor a reason")
    nope = "tests/mutations/test_catalogue.py::test_nope"
    bad_test = dataclasses.replace(bare, id="bad-test", none_because="x", evidence=nope)
    found = problems([*freedoms(), ghost, bare, bad_test, bare])
    assert "freedom 'ghost' names rewrite 'no-such-rewrite', which does not exist" in found
    assert "freedom 'bare': neither a rewrite nor the reason there is none" in found
    assert "freedom 'bad-test': evidence 'tests/mutations/test_catalogue.py::test_nope' names no test" in found
    assert "freedom 'bare' is listed twice" in found


def test_spellings_md_is_current():
    assert (ROOT / "docs" / "spellings.md").read_text() == markdown() + "\n", "docs/spellings.md is stale: python -m "
    "passcheck.mutations.catalogue --markdown"


def test_catalogue_has_at_least_sixty_freedoms_each_sourced():
    rows = freedoms()
    assert len(rows) >= 60
    assert all(f.source and f.summary and (f.rewrites or f.none_because) for f in rows)
