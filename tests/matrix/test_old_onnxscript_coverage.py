"""On the oldest onnxscript lines passcheck pins, ``passcheck coverage`` reads onnxscript's catalogue where that
release has one (0.3.2, ci/envs/onnx-1.18.txt: the Gemm rule is ``gemm_to_matmul_add.rule`` there) and says why not
where it has none (0.1.0, ci/envs/onnx-1.16.txt: ``fuse_xformers`` counts nothing). Needs the package index
(creates the pinned environments).

Each run gets an empty ``PASSCHECK_CACHE`` (its coverage cache is built there, never read from an earlier run). A
literal ``--case`` loads no gated library family (``passcheck.cases.sources``: a literal id is asked of the names
read once), so no gate is judged there and the cache needs no seeding: copying the env's gate verdicts in
(``tests/_case_gates.seeded``) cost a library-loading process in the pinned env, 2.4–4.0 s of CPU per test, more than
the coverage run's own parent. The run asserts it: the cache holds its coverage folder alone afterwards."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from passcheck.matrix import create, envs

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.matrix


def _coverage(pins: str, tmp_path: Path) -> dict:
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / pins), REPO)
    out = tmp_path / f"{pins}.json"
    cache = tmp_path / "cache"
    p = subprocess.run(
        [str(env.python), "-m", "passcheck", "coverage", "--tool", "onnxscript", "--no-generated"]
        + ["--case", "optional-input/conv-bn", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=1200,
        env={**os.environ, "PASSCHECK_CACHE": str(cache)},
    )
    assert p.returncode == 0, p.stderr
    built = sorted(q.name for q in cache.iterdir()) if cache.is_dir() else []
    assert set(built) <= {"coverage"}, f"the run built {built} in its cache: a gated family was loaded"
    return json.loads(out.read_text())


def test_onnxscript_0_3_catalogue_is_read(tmp_path):
    doc = _coverage("onnx-1.18.txt", tmp_path)
    assert "onnxscript" not in doc["unavailable"], doc["unavailable"]
    assert doc["totals"]["onnxscript"]["total"] > 50, doc["totals"]["onnxscript"]


def test_onnxscript_0_1_catalogue_is_unavailable_with_its_reason(tmp_path):
    doc = _coverage("onnx-1.16.txt", tmp_path)
    assert "returns no fusion counts" in doc["unavailable"]["onnxscript"], doc["unavailable"]
