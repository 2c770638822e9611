"""On the oldest onnxscript lines passcheck pins, ``passcheck coverage`` reads onnxscript's catalogue where that
release has one (0.3.2, ci/envs/onnx-1.18.txt: the Gemm rule is ``gemm_to_matmul_add.rule`` there) and says why not
where it has none (0.1.0, ci/envs/onnx-1.16.txt: ``fuse_xformers`` counts nothing). Needs the package index
(creates the pinned environments)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from passcheck.matrix import create, envs
from tests import _case_gates

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.matrix


def _coverage(pins: str, tmp_path: Path) -> dict:
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / pins), REPO)
    out = tmp_path / f"{pins}.json"
    cache = _case_gates.seeded(tmp_path / "cache", env.python)  # the env's own gate verdicts: not judged again
    p = subprocess.run(
        [str(env.python), "-m", "passcheck", "coverage", "--tool", "onnxscript", "--no-generated"]
        + ["--case", "optional-input/conv-bn", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=1200,
        env={**os.environ, "PASSCHECK_CACHE": str(cache)},
    )
    assert p.returncode == 0, p.stderr
    return json.loads(out.read_text())


def test_onnxscript_0_3_catalogue_is_read(tmp_path):
    doc = _coverage("onnx-1.18.txt", tmp_path)
    assert "onnxscript" not in doc["unavailable"], doc["unavailable"]
    assert doc["totals"]["onnxscript"]["total"] > 50, doc["totals"]["onnxscript"]


def test_onnxscript_0_1_catalogue_is_unavailable_with_its_reason(tmp_path):
    doc = _coverage("onnx-1.16.txt", tmp_path)
    assert "returns no fusion counts" in doc["unavailable"]["onnxscript"], doc["unavailable"]
