"""The coverage report reads the generated set's index (a few MB of JSON) once per report: every
untriggered entry's reason quotes its stats from that one read."""

from __future__ import annotations

import json
import pathlib

from passcheck.coverage import report
from passcheck.coverage.entry import Entry
from passcheck.coverage.map import CoverageMap


def test_a_report_reads_the_generated_index_once_for_every_untriggered_entry(tmp_path, monkeypatch):
    from passcheck.generate import cache_dir

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    path = cache_dir() / "index.json"
    path.parent.mkdir(parents=True)
    stats = {"skipped": {"Scatter": {"deprecated": 1}}, "dropped": {"Col2Im": {"the checker rejects it": 2}}}
    path.write_text(json.dumps({"cases": [], "stats": stats}))
    reads = []
    real = pathlib.Path.read_text
    monkeypatch.setattr(pathlib.Path, "read_text", lambda self, *a, **k: (reads.append(self), real(self, *a, **k))[1])
    entries = [
        Entry("onnx-shape-inference", "inference", f"{op}@{v}", ("onnx:infer-shapes",), "ort", "onnx.defs")
        for op, v in (("Scatter", 9), ("Col2Im", 18), ("Abs", 13))
    ]
    cmap = CoverageMap({e.key: e for e in entries}, {}, [], {})
    rows = {r["name"]: r["reason"] for r in report.to_json(cmap)["entries"]}
    assert rows == {
        "Scatter@9": "no base has a node of Scatter@9; generate --stats: deprecated (1)",
        "Col2Im@18": "no base has a node of Col2Im@18; generate --stats: the checker rejects it (2)",
        "Abs@13": "no base has a node of Abs@13",
    }
    assert [p for p in reads if p.name == "index.json"] == [path]
