"""A cell's JSON record carries each finding as the finding's own record (its fields and ``id``),
the findings converted once with the cell (issue 28)."""

from __future__ import annotations

import json

from passcheck.records import CellResult, Finding


def test_a_cells_findings_are_written_as_their_own_records():
    found = [
        Finding("numeric-mismatch", "numeric", "c", "f", "ort:basic", "differs", {"max_abs": 1.5}),
        Finding("spec-violation", "conformance", "c", "f", "ort:basic", "outside", attribution=["rule"]),
    ]
    cell = CellResult("c", "f", "ort:basic", "ok", findings=found, coverage={"spec_rules": {"checked": 2}})
    d = cell.to_json()
    assert d["findings"] == [f.to_json() for f in found]
    assert [list(f) for f in d["findings"]] == [list(f.to_json()) for f in found]  # key order: the file's bytes
    assert d["findings"][0]["id"] == "c:f|ort:basic|numeric|numeric-mismatch"
    assert CellResult.from_json(json.loads(json.dumps(d))) == cell
