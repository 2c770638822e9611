"""The stored report of ``passcheck run --case optional-input/conv-bn --pass ort:basic`` (the ``""``-bias
fusion gap: one missed-optimization finding on ``empty-name``): run once per test run and shared by the xdist
workers (tests/_shared.py). tests/upstream attributes it and writes a repro of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from passcheck.cli import main
from tests._shared import built_once

CASE = "optional-input/conv-bn"
FINDING = f"{CASE}:empty-name|ort:basic|parity|missed-optimization"


def _run(folder: Path) -> int:
    return main(["run", "--case", CASE, "--pass", "ort:basic", "--json", str(folder / "r.json"), "-q"])


def conv_bn_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report's JSON file (read it, never write it); the run exited 1 (its finding)."""
    folder, code = built_once(tmp_path_factory, "upstream-conv-bn-report", _run)
    assert code == 1
    return folder / "r.json"
