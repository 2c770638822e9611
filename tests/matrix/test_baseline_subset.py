"""A subset run with the whole shipped baseline: entries outside the run's selection are one count
line; only entries the run could have seen and did not are listed (console, report.md)."""

import json
import subprocess
import sys
from pathlib import Path

from passcheck.matrix import report
from passcheck.records import CellResult

PASSCHECK = str(Path(sys.executable).with_name("passcheck"))


def test_merge_lists_only_entries_the_subset_could_have_seen(tmp_path):
    cells = [
        CellResult("fam/c0", "odd", "p1", "skipped", env="e1"),  # named by an entry, not run: listed
        CellResult("fam/c0", "common", "p1", "unchanged", env="e1"),
    ]
    shard = tmp_path / "shard"
    shard.mkdir()
    plan = {"hash": "abc", "shard": 1, "shards": 1, "cells": 2, "shard_cells": 2}
    report.write_all(
        shard,
        cells,
        {"e1": {"onnx": "x"}},
        {"environments": [{"id": "e1"}], "shard": "1/1", "models": {}, "plan": plan},
    )
    others = [{"id": f"other/c{i}:odd|p1|acceptance|rejected", "reason": "r"} for i in range(300)]
    known = tmp_path / "known.json"
    known.write_text(
        json.dumps(
            {
                "known": [
                    {"id": "fam/c0:odd|p1|acceptance|rejected", "reason": "r"},
                    *others,
                    {"id": "fam/c0:common|p1|acceptance|rejected", "reason": "r", "envs": ["e9"]},
                ]
            }
        )
    )
    p = subprocess.run(
        [PASSCHECK, "merge", str(shard), "--out", str(tmp_path / "m"), "-q", "--baseline", str(known)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    text = p.stdout + p.stderr
    listed = [ln for ln in text.splitlines() if "baseline entry not run" in ln]
    assert listed == ["baseline entry not run in any of its environments (e1): fam/c0:odd|p1|acceptance|rejected"], (
        text[-3000:]
    )
    assert "301 baseline entries outside this run's selection" in text
    md = (tmp_path / "m" / "report.md").read_text()
    assert md.count("baseline entry not run") == 1 and "301 baseline entries outside" in md
