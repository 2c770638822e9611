"""Each entry of ``passcheck/triage/known_upstream.json`` matches a finding of the library case that
exhibits it (issue 31), run here with the real tool; an entry fixed in a version older than the one
installed is checked not to show, and the test says so (skip with the versions)."""

from __future__ import annotations

import pytest
from packaging.version import Version

import passcheck
from passcheck._versions import tool_version
from passcheck.triage.candidates import tool_of
from passcheck.triage.known import entries, matches, phrase


def _id(e) -> str:
    return e["link"].rsplit("/", 3)[-3] + "#" + e["link"].rsplit("/", 1)[-1]


@pytest.mark.parametrize("entry", entries(), ids=_id)
def test_each_known_report_matches_a_finding_of_its_library_case(entry):
    lib = entry["library"]
    report = passcheck.run([lib["case"]], [lib["pass"]])
    found = [f for c in report.cells for f in c.findings if tool_of(f) == entry["tool"]]
    hits = [f for f in found if matches(entry, f, entry["tool"])]
    if entry.get("fixed_in"):
        package, version = entry["fixed_in"].split()
        installed = tool_version(package)
        if Version(installed) >= Version(version):
            assert not hits, f"{package} {installed} is fixed in {version}, yet {hits[0].id} matches"
            pytest.skip(f"{package} {installed} >= {version} (fixed in): {lib['case']} shows no such finding here")
    assert hits, f"{lib['case']} | {lib['pass']}: no finding matches {phrase(entry)}; found: {[f.id for f in found]}"


def test_an_unrelated_finding_is_new():
    from passcheck.records import Finding

    f = Finding(
        "missed-optimization",
        "parity",
        "c",
        "u",
        "ort:basic",
        "ort:basic removed Relu 1→0 in 'common' but 1→1 in 'u'",
        {"kept_op_types": ["Relu"]},
    )
    assert not any(matches(e, f, "onnxruntime") for e in entries())
