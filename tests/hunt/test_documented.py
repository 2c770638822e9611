"""Defects the docs already record are known to the hunt (passcheck/hunt/documented.py): documented.json is the
one machine-readable record of which docs/found.md / found-envs.md row is which hunt signature; a hunt signature
matching one is counted known, not new, and its summary says ``known (found.md row N)``."""

from __future__ import annotations

import re
from pathlib import Path

from passcheck.hunt import baseline, documented
from passcheck.hunt.summary import markdown
from passcheck.signature import Signature

DOCS = Path(__file__).resolve().parents[2] / "docs"
ROW = re.compile(r"^\| ([0-9]+|[A-Z][0-9]+) \|")
TOKEN = re.compile(r"hunt[_/]([A-Za-z0-9_.+-]+)")
DIGEST = re.compile(r"(?:^|[-_])([0-9a-f]{8})$")


def _cited(line: str) -> set[str]:
    """The signature digests a row cites (``hunt_<digest>.py``, ``hunt/<…>-<digest>``; not ``hunt_env_<id>``)."""
    tokens = [t.removesuffix(".py") for t in TOKEN.findall(line)]
    return {m.group(1) for t in tokens if not t.startswith("env") and (m := DIGEST.search(t))}


#: docs/found.md row 10: ort:symbolic-shape-infer's TypeError on keepdims-unsqueeze over ReduceProd.
ROW_10 = Signature(
    "ort:symbolic-shape-infer", "acceptance", "rejected", ("ReduceProd",), "keepdims-unsqueeze", "TypeError"
)


def _rows(doc: str) -> dict[tuple[str, str], str]:
    """(section or "", row) → the row's line; the section only where the doc repeats the row number."""
    lines = (DOCS / doc).read_text(encoding="utf-8").splitlines()
    numbers = [m.group(1) for line in lines if (m := ROW.match(line))]
    out, section = {}, ""
    for line in lines:
        section = line[3:].strip() if line.startswith("## ") else section
        if m := ROW.match(line):
            out[section if numbers.count(m.group(1)) > 1 else None, m.group(1)] = line
    return out


def test_the_file_and_the_docs_name_the_same_rows_and_digests():
    docs = {d: _rows(d) for d in ("found.md", "found-envs.md")}
    named = {(e["doc"], e.get("section"), e["row"]): e for e in documented.entries()}
    for (doc, section, row), e in named.items():
        line = docs[doc].get((section, row))
        assert line is not None, f"documented.json names {doc} row {row} ({section}), which the doc does not have"
        for d in e["digests"]:
            assert d in line, f"{doc} row {row} does not cite hunt digest {d}"
        for c in e.get("cases", ()):
            assert c.rsplit("-", 1)[1] in line, c
    for doc, rows in docs.items():
        for (section, row), line in rows.items():
            cited = _cited(line)
            if cited:
                assert (doc, section, row) in named, (
                    f"{doc} row {row} cites hunt digests {sorted(cited)}: not in the file"
                )
                assert cited <= set(named[doc, section, row]["digests"]), (doc, row, cited)


def _store(*sigs: Signature) -> dict:
    return {s.key: {"signature": s.to_json(), "hits": 1, "case": s.case_id, "message": "m"} for s in sigs}


def test_a_documented_signature_is_known_and_says_which_row():
    other = Signature("ort:basic", "parity", "missed-optimization", ("Relu",), "never-documented")
    store = _store(ROW_10, other)
    new, old = baseline.split(store, {})
    assert list(new) == [other.key] and list(old) == [ROW_10.key]
    assert baseline.split(store, {}, documented=False) == (store, {})
    entry = documented.which(ROW_10.key, store[ROW_10.key])
    assert entry is not None and documented.label(entry) == "found.md row 10 (triage table)"
    text = markdown(store, [], None, "t")
    escaped = ROW_10.key.replace("|", "\\|")  # a table cell's escape
    assert f"`{escaped}` (1 hits), known (found.md row 10 (triage table))" in text and "**1 new**" in text


def test_an_older_spelling_is_documented_through_its_case_digest():
    """A signature whose key an older passcheck spelled otherwise (the cited digest is of that key): the record's
    case id still ends with it."""
    old_spelling = ROW_10.replace(ops=("ReduceProd", "Unsqueeze"))  # today's key differs, the case is the cited one
    rec = {"signature": old_spelling.to_json(), "case": ROW_10.case_id}
    assert documented.which(old_spelling.key, rec)["row"] == "10"
    assert (
        documented.which(old_spelling.key, {"signature": old_spelling.to_json(), "case": old_spelling.case_id}) is None
    )


def test_a_documented_defect_reached_by_another_rewrite_is_known_by_its_match():
    """found.md row 84 (AttentionFusion removes a MatMul another node reads): its entry's ``match`` holds for the
    signature of any rewrite whose pass, finding and onnxruntime's words agree; other words or another oracle do not."""
    words = (
        "ort:all declined: InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Invalid model. Node input "
        "'qk' is not a graph input, initializer, or output of a previous node."
    )
    sig = Signature("ort:all", "acceptance", "rejected", ("Div", "MatMul", "Neg"), "vary:fanout", "ONNXRuntimeError")
    rec = {"signature": sig.to_json(), "message": words, "case": sig.case_id}
    assert documented.which(sig.key, rec)["row"] == "84"
    other = sig.replace(rewrite="twin-output")
    assert documented.which(other.key, {**rec, "signature": other.to_json(), "case": other.case_id})["row"] == "84"
    assert documented.which(sig.key, {**rec, "message": "ort:all declined: Fail: something else"}) is None
    numeric = sig.replace(oracle="numeric", kind="wrong-result")
    assert documented.which(numeric.key, {**rec, "signature": numeric.to_json(), "case": numeric.case_id}) is None
    new, old = baseline.split({sig.key: {**rec, "hits": 1}}, {})
    assert list(old) == [sig.key] and not new
