"""A new user's afternoon (session 32, docs/recall.md round 11f): what the CLI says to a folder ``merge`` cannot
join names both kinds it joins."""

from __future__ import annotations

import subprocess
import sys


def test_merge_of_a_folder_that_is_neither_names_both_kinds_it_joins(tmp_path):
    (tmp_path / "run.json").write_text("{}", encoding="utf-8")
    for what in (tmp_path / "run.json", tmp_path):
        r = subprocess.run(
            [sys.executable, "-m", "passcheck", "merge", str(what), "--out", str(tmp_path / "m")],
            capture_output=True,
            text=True,
            timeout=300,
        )
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1, r.stderr
        assert "'passcheck matrix'" in lines[0] and "'passcheck hunt" in lines[0], lines
