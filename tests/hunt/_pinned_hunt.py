"""A short in-process hunt of one planted case pinned to some rewrites (``--rewrite``, no variation, no coverage):
the exit's process result and the signatures found, keyed by (kind, rewrite)."""

from __future__ import annotations

import json
from pathlib import Path

from tests._inproc import cli


def pinned_hunt(tmp_path: Path, cases_from: Path, case: str, pass_id: str, rewrite: str, budget: str):
    argv = ["hunt", "--cases-from", cases_from, "--case", case, "--no-generated", "--pass", pass_id, "--seed", "1"]
    argv += ["--rewrite", rewrite, "--no-variation", "--no-coverage", "--budget", budget, "--out", tmp_path]
    r = cli(*argv, "--progress", "none")
    state = json.loads((tmp_path / "hunt-state.json").read_text())
    return r, {(s["signature"]["kind"], s["signature"]["rewrite"]): s for s in state["signatures"].values()}
