"""The planted negative-axes hunt (20 items, seed 1), its two shards, their merge and a baseline of the
unsharded run, run once per test run and read by tests/hunt/test_hunt.py and tests/hunt/test_shard_merge.py
(``built_once``: every xdist worker reads the same folders; tests write only below their own ``tmp_path``).
Each is a real ``passcheck hunt`` / ``passcheck merge`` subprocess, its output kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests._shared import built_once

PLANTED = Path(__file__).with_name("planted_hunt.py")
PASS = "planted:negative-axes"


def cli(*args: str) -> subprocess.CompletedProcess:
    """``passcheck ARGS`` in a subprocess (heartbeat lines off), output captured."""
    return subprocess.run(
        [sys.executable, "-m", "passcheck", *args],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PASSCHECK_PROGRESS_EVERY": "0"},
    )


def hunt(out: Path, *args: str, budget: str = "20items") -> subprocess.CompletedProcess:
    """The planted hunt over ``hunt-test/*`` under ``planted:negative-axes``, seed 1, into ``out``."""
    argv = ["hunt", "--cases-from", str(PLANTED), "--case", "hunt-test/*", "--pass", PASS, "--budget", budget]
    return cli(*argv, "--seed", "1", "--out", str(out), "--progress", "lines", *args)


def _build(tmp: Path) -> dict:
    whole = hunt(tmp / "whole", "--write-baseline", str(tmp / "known.json"))
    one, two = hunt(tmp / "s1", "--shard", "1/2"), hunt(tmp / "s2", "--shard", "2/2")
    merged = cli("merge", str(tmp / "s1"), str(tmp / "s2"), "--out", str(tmp / "merged"))
    return {k: vars(r) for k, r in (("whole", whole), ("one", one), ("two", two), ("merged", merged))}


def negative_axes_runs(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, subprocess.CompletedProcess]]:
    """(folder, runs): ``whole``, ``one``, ``two`` (shards 1/2, 2/2) and ``merged`` in ``folder``'s
    subfolders ``whole``, ``s1``, ``s2``, ``merged``; the baseline of ``whole`` is ``folder/known.json``.
    At 3e0db54 seed 1 finds the planted pass at step 3 (negative-axes on the softmax base)."""
    tmp, done = built_once(tmp_path_factory, "hunt-shards-merged", _build)
    return tmp, {k: subprocess.CompletedProcess(**v) for k, v in done.items()}
