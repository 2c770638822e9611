"""A matrix worker never generates the generated set under its own onnx: the parent ships each
generated case's bytes and metadata (doc, opset, tags, tolerances, parity) in the manifest, and
the worker rebuilds the case from them. (A worker that generated under onnx 1.17 / 1.18 was killed
by SIGSEGV, and every cell of the environment was blamed.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from passcheck.cases import registry
from passcheck.generate import case_meta, shipped_case
from passcheck.matrix import plan, schemas

REPO = Path(__file__).resolve().parents[2]
LOCAL = Path(__file__).with_name("local_matrix.py")
CASE = "generated/relu-13.shape"


def test_manifest_carries_the_metadata_the_worker_reads(tmp_path):
    plan.build_models([CASE], ["ort:basic"], tmp_path)
    entry = json.loads((tmp_path / "manifest.json").read_text())["cases"][0]
    original = registry().get(CASE)
    case = shipped_case(CASE, entry["meta"])
    assert case_meta(case) == case_meta(original)
    assert list(case.forms) == list(original.forms) and (case.rtol, case.atol, case.parity) == (
        original.rtol,
        original.atol,
        original.parity,
    )
    assert plan.read_manifest(tmp_path)[0].meta == entry["meta"]


def test_worker_whose_generator_would_crash_still_runs_the_shipped_case(tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    # in the planted environment, generating the set kills the process (as onnx 1.17's schemas did)
    (broken / "sitecustomize.py").write_text(
        textwrap.dedent("""
        import os
        import passcheck.generate as g
        g.index = lambda *a, **k: os.abort()
    """)
    )
    cmd = [
        sys.executable,
        str(LOCAL),
        "matrix",
        "--env",
        "onnx-1.22",
        "--case",
        CASE,
        "--pass",
        "ort:basic",
        "--out",
        str(tmp_path / "out"),
        "--source",
        str(REPO),
        "--envs-dir",
        str(REPO / "ci" / "envs"),
        "--progress",
        "none",
        "-q",
        "--jobs",
        "1",
    ]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        "LOCAL_MATRIX_ROOT": str(tmp_path / "envs"),
        "LOCAL_MATRIX_BROKEN": f"onnx-1.22:{broken}",
    }
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr
    cells = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    # released-schema cells (passcheck.matrix.schemas) are not this case's; a --case run without schemas/* has none
    cells = [c for c in cells if c.get("type") == "cell" and c["case"] != schemas.CASE]
    assert cells and all(c["case"] == CASE for c in cells)
    assert not any(f.get("oracle") == "isolation" for c in cells for f in c["findings"]), cells
    assert {c["verdict"] for c in cells} <= {"ok", "findings", "expected"}, [
        (c["form"], c["pass_id"], c["verdict"], c["error"]) for c in cells
    ]
