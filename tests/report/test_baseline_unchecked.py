"""Unchecked parts can be accepted by a baseline, like known findings, and only then exit 0.

onnxruntime cannot run ``optional-input/squeeze-axes:empty-name`` (``Squeeze(x, "")``), so the
outputs of that form under any pass are not compared (verdict ``unchecked``, exit 1); a baseline
written from that run names them and makes the same run exit 0; the entry is reported as
occurring; a baseline without it leaves the run failing.
"""

from __future__ import annotations

import json

from passcheck.cli import main
from passcheck.records import CellResult
from passcheck.report import baseline
from passcheck.report.json_report import read_report

ARGS = ["run", "--case", "optional-input/squeeze-axes", "--pass", "onnx:infer-shapes", "-q", "--progress", "none"]


def test_unchecked_cells_fail_until_a_baseline_accepts_them(tmp_path, capsys):
    known = tmp_path / "known.json"
    report = tmp_path / "r.json"
    assert main([*ARGS, "--json", str(report), "--write-baseline", str(known)]) == 1
    cells, _envs = read_report(report)
    unchecked = [c for c in cells if c.verdict == "unchecked"]
    assert [(c.form, c.pass_id) for c in unchecked] == [("empty-name", "onnx:infer-shapes")]
    ids = [e["id"] for e in json.loads(known.read_text())["known"]]
    assert unchecked[0].unchecked_id in ids

    capsys.readouterr()
    assert main([*ARGS, "--baseline", str(known)]) == 0

    only_findings = tmp_path / "findings-only.json"
    only_findings.write_text(
        json.dumps({"known": [e for e in json.loads(known.read_text())["known"] if "|unchecked|" not in e["id"]]})
    )
    assert main([*ARGS, "--baseline", str(only_findings)]) == 1


def test_status_and_reset_cover_unchecked_entries():
    cell = CellResult("c/x", "f", "p", "changed", env="e1", unchecked={"output 'y'": "reference run fails"})
    k = baseline.Known(cell.unchecked_id, "onnxruntime cannot run form f", envs=("e1",))
    assert baseline.apply([cell], [k]) == []
    assert cell.verdict == "expected" and cell.unchecked_known.startswith("onnxruntime")
    (st,) = baseline.status([cell], [k], ["e1", "e2"])
    assert st.occurs == ("e1",) and st.fixed == () and st.not_run == ()
    baseline.reset([cell])
    assert cell.verdict == "unchecked"
    other_env = CellResult("c/x", "f", "p", "changed", env="e2", unchecked={"output 'y'": "reference run fails"})
    assert baseline.apply([other_env], [k]) == [k] and other_env.verdict == "unchecked"


def test_rewriting_a_baseline_keeps_the_reasons_of_entries_that_still_occur(tmp_path):
    from passcheck.records import Finding

    f_old = Finding("rejected", "runtime", "c/x", "f", "input", "cannot run", env="e1")
    f_new = Finding("wrong-result", "numeric", "c/x", "g", "ort:basic", "differs", env="e1")
    cells = [
        CellResult("c/x", "f", "input", "unchanged", env="e1", findings=[f_old]),
        CellResult("c/x", "g", "ort:basic", "changed", env="e1", findings=[f_new]),
    ]
    path = tmp_path / "known.json"
    path.write_text(
        json.dumps(
            {
                "known": [
                    {"id": f_old.id, "reason": "triaged: onnxruntime bug", "link": "upstream#1"},
                    {"id": "gone/case:f|p|o|k", "reason": "fixed since"},
                ]
            }
        )
    )
    doc = json.loads(baseline.from_cells(cells, "recorded, not triaged", previous=baseline.previous_entries(path)))
    by_id = {e["id"]: e for e in doc["known"]}
    assert by_id[f_old.id]["reason"] == "triaged: onnxruntime bug" and by_id[f_old.id]["link"] == "upstream#1"
    assert by_id[f_new.id]["reason"] == "recorded, not triaged"
    assert "gone/case:f|p|o|k" not in by_id
    assert baseline.previous_entries(tmp_path / "missing.json") == []
