"""On a real onnx 1.16 environment (ci/envs/onnx-1.16.txt), whose ReferenceEvaluator.run has no
``intermediate`` keyword, the generated set is built (issue 26): BatchNormalization and a sequence
op get cases, and no pair is dropped for the reference evaluator failing on every form. Needs
the package index (creates the pinned environment)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from passcheck.matrix import create, envs

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.matrix


def test_generated_set_builds_on_onnx_116(tmp_path):
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / "onnx-1.16.txt"), REPO)
    out = tmp_path / "s.json"
    p = subprocess.run(
        [
            str(env.python),
            "-m",
            "passcheck",
            "generate",
            "--stats",
            "--op",
            "BatchNormalization",
            "--op",
            "SequenceAt",
            "--op",
            "Relu",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=1200,
        env={**os.environ, "PASSCHECK_CACHE": str(tmp_path / "cache")},
    )
    assert p.returncode == 0, p.stderr
    doc = json.loads(out.read_text())
    assert doc["onnx"] == "1.16.2"
    built = doc["stats"]["built"]
    assert built.get("BatchNormalization", 0) > 0 and built.get("SequenceAt", 0) > 0 and built.get("Relu", 0) > 5
    assert "intermediate" not in json.dumps(doc["stats"]["examples"])
