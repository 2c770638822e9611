"""``passcheck triage HUNT_DIR`` calls a candidate known exactly when the hunt's summary did (session 37, round 16j):
a documented row's ``match`` rule meets a signature whatever pass spelling or neighbour reached it, so the pair's
digest need not be one the row cites; triage judges the pair by the hunt's own record of it."""

from __future__ import annotations

import json

import pytest

from tests._inproc import cli


@pytest.mark.slow  # a 20-item hunt on one base, then its triage
def test_triage_reads_known_where_the_hunt_summary_read_known(tmp_path):
    # row 175 cites the pair found under onnx:infer-shapes: under the strict pass the digest is another
    words = "--pass onnx:infer-shapes-strict --vary-kind value-floor-edge --budget 20items --stop-after 1 --seed 1"
    hunt = cli("hunt", "--case", "optional-input/resize-scales-sizes", *words.split(), "--out", tmp_path / "h")
    assert hunt.returncode in (0, 1), hunt.stderr
    state = json.loads((tmp_path / "h" / "hunt-state.json").read_text())
    saved = {rec["case"] for rec in state["signatures"].values() if rec.get("case_module")}
    summary = (tmp_path / "h" / "summary.md").read_text()
    assert saved and "known (found.md row 175)" in summary, summary
    t = cli("triage", tmp_path / "h", "--out", tmp_path / "t")
    assert t.returncode == 0, t.stderr
    reports = {p.parent.name: p.read_text() for p in (tmp_path / "t").glob("*/REPORT.md")}
    assert reports and all("- upstream: known (found.md row 175" in r for r in reports.values()), reports
    assert "| new |" not in (tmp_path / "t" / "index.md").read_text()
