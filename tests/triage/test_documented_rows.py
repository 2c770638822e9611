"""Triage names a candidate the docs already record (passcheck/hunt/documented.py): a finding on a hunt's saved
pair whose case digest a docs/found.md row cites reads ``known (found.md row N)``, not ``new``."""

from __future__ import annotations

from passcheck.hunt import documented
from passcheck.records import Finding
from passcheck.signature import Signature
from passcheck.triage.index import upstream_phrase

#: docs/found.md row 10 (the triage table): the keepdims-unsqueeze TypeError of ort:symbolic-shape-infer.
ROW_10 = Signature(
    "ort:symbolic-shape-infer", "acceptance", "rejected", ("ReduceProd",), "keepdims-unsqueeze", "TypeError"
)


def _finding(case: str, **details) -> Finding:
    return Finding("rejected", "acceptance", case, "uncommon", "ort:symbolic-shape-infer", "crashed", details)


def test_a_candidate_on_a_documented_pair_reads_known_with_its_row():
    entry = documented.of_findings([_finding("constant/x"), _finding(ROW_10.case_id)])
    assert entry is not None and upstream_phrase(None, entry) == "known (found.md row 10 (triage table))"
    kept_no_pair = documented.of_findings([_finding("constant/x", signature=ROW_10.key)])
    assert kept_no_pair is entry
    assert documented.of_findings([_finding("hunt/other-ort-basic-rejected-00000000")]) is None
    assert upstream_phrase(None, None) == "new"
