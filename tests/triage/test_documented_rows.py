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


def test_another_finding_on_a_documented_pair_is_named_by_its_own_kind():
    """Round 16d (M302): a saved pair shows every finding of its forms. The pair `hunt_7bb0cb3b` is row 1017's
    (`ort-quant:quantize-static-qoperator acceptance rejected`); an invalid output on the same pair, an initializer
    that is no graph input, is the row the hunt's rules give it (an IR-3 row), not row 1017; a finding no rule
    names stays new."""
    case = "hunt/neutral-where-not-ort-quant-quantize-static-qoperator-reject-7bb0cb3b"

    def finding(oracle: str, kind: str, message: str) -> Finding:
        return Finding(kind, oracle, case, "uncommon", "ort-quant:quantize-static-qoperator", message)

    rejected = documented.of_findings([finding("acceptance", "rejected", "Invalid model with unknown …")])
    assert rejected is not None and rejected["row"] == "1017"
    invalid = finding(
        "validity", "invalid-model", "ValidationError: x_zero_point in initializer but not in graph input"
    )
    entry = documented.of_findings([invalid])
    sig = Signature("ort-quant:quantize-static-qoperator", "validity", "invalid-model", (), "neutral-where-not", "x")
    as_hunt = documented.which(sig.key, {"signature": sig.to_json(), "message": invalid.message})
    assert entry is not None and entry["row"] != "1017" and entry is as_hunt  # an IR-3 row (65 of § session 15)
    assert documented.of_findings([finding("parity", "less-precise", "[2, ?] vs [2, 6]")]) is None


def test_a_pair_whose_digest_no_row_cites_is_judged_by_its_hunt_record_as_the_hunt_judged_it():
    """A documented row's ``match`` rule meets a signature whatever its rewrite or pass spelling (row 175: a Resize
    annotation onnx's reference evaluator computes as annotated), so a hunt under another pass saves the pair under
    a digest no row cites: the hunt's summary calls it known, and triage, given the hunt's record, agrees."""
    sig = Signature(
        "onnx:infer-shapes-strict", "annotations", "annotation-violated", ("Resize",), "vary:value-floor-edge"
    )
    message = "annotation does not hold (binding 0): y: axis 2 annotated 4, run produced 5 (shape [2, 2, 5, 5]); " + (
        "onnx's reference evaluator computes it as annotated: the runtime deviates"
    )
    rec = {"signature": sig.to_json(), "case": sig.case_id, "message": message}
    assert documented.which(sig.key, rec)["row"] == "175"  # what the hunt's summary says
    f = Finding(
        "annotation-violated", "annotations", sig.case_id, "common", sig.pass_id, message, {"producer": "Resize"}
    )
    assert documented.of_findings([f]) is None  # the digest alone: no row cites it
    entry = documented.of_findings([f], {sig.case_id: [("other|key", {"case": sig.case_id}), (sig.key, rec)]})
    assert entry is not None and upstream_phrase(None, entry) == "known (found.md row 175)"
