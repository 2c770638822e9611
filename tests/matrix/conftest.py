"""The small real matrix several modules assert on: onnx 1.18 and 1.23, two cases, two passes, run in two shards
(``--shard 1/2`` and ``2/2``, ``--exit-zero``, as the shipped workflow's shard jobs do). Built once per test run
and shared by the xdist workers (tests/_shared.py): ``test_known_real`` merges it with baselines and
``test_real_matrix`` compares its merge with the unsharded run."""

from __future__ import annotations

from pathlib import Path

import pytest

from passcheck.cli import main
from tests._shared import built_once

REPO = Path(__file__).resolve().parents[2]
SELECTION = [
    "--env",
    "onnx-1.18",
    "--env",
    "onnx-1.23",
    "--case",
    "constant/pad-pads-opset17",
    "--case",
    "optional-input/conv-bn",
    "--pass",
    "onnx:infer-shapes-strict",
    "--pass",
    "ort:basic",
]


def shards(root: Path, *extra: str) -> list[str]:
    """Every shard of the plan (SELECTION plus ``extra``), as the workflow's shard jobs run them (findings do not
    fail them): the shard folders under ``root``."""
    dirs = []
    for i in (1, 2):
        out = root / f"shard{i}"
        code = main(
            [
                "matrix",
                *SELECTION,
                *extra,
                "--shard",
                f"{i}/2",
                "--exit-zero",
                "--out",
                str(out),
                "--source",
                str(REPO),
                "--envs-dir",
                str(REPO / "ci" / "envs"),
                "--progress",
                "lines",
                "-q",
                "--jobs",
                "2",
            ]
        )
        assert code == 0
        dirs.append(str(out))
    return dirs


@pytest.fixture(scope="session")
def matrix_shards():
    """:func:`shards`, for a test that shards a plan of its own (SELECTION plus its extra arguments)."""
    return shards


@pytest.fixture(scope="session")
def today_shards(tmp_path_factory) -> list[str]:
    """The two shard folders of SELECTION on today's pins (read them; write below your own tmp_path)."""
    return built_once(tmp_path_factory, "matrix-today-shards", shards)[1]
