"""What a new user ran in CI and got wrong (session 9): each command through the console script,
as the README spells it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PASSCHECK = str(Path(sys.executable).with_name("passcheck"))


def _run(args, tmp_path, **env):
    return subprocess.run(
        [PASSCHECK, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PASSCHECK_CACHE": str(tmp_path / "cache"), **env},
        timeout=600,
    )


def test_coverage_refuses_an_unknown_pass_id_before_any_work(tmp_path):
    # every other command refuses an unknown pass id in one line, exit 2; coverage printed an
    # empty map and exited 0 after observing the bases
    p = _run(["coverage", "--case", "optional-input/conv-bn", "--pass", "ort:basics"], tmp_path)
    assert p.returncode == 2, (p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    assert p.stderr.strip().splitlines() == [p.stderr.strip()], p.stderr[-2000:]
    assert p.stderr.startswith("passcheck: error: unknown pass id 'ort:basics'")
    assert not (tmp_path / "cache" / "coverage").exists()  # refused before the catalogue was read
