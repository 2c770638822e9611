"""Triage scripts a finding of a Python-API optimizer (onnxoptimizer here) instead of refusing it: the bundle's
REPORT.md names the tool's version and install, and its repro.py calls the tool itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort
import pytest

from passcheck.cli import main

#: Shape(start=1) then a Slice over all of it: [3, 4, 5] for x of shape [2, 3, 4, 5].
MODEL = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2,3,4,5] x) => (int64[3] s) <int64[1] starts = {-10}, int64[1] ends = {10}, int64[1] axes = {0}> {
  full = Shape <start = 1> (x)
  s = Slice (full, starts, ends, axes)
}"""


def test_an_onnxoptimizer_wrong_result_gets_a_bundle_with_the_tool_in_it(tmp_path):
    onnxoptimizer = pytest.importorskip("onnxoptimizer")
    model = onnx.parser.parse_model(MODEL)
    x = {"x": np.zeros((2, 3, 4, 5), np.float32)}
    outs = [ort.InferenceSession(m.SerializeToString()).run(None, x)[0] for m in (model, onnxoptimizer.optimize(model))]
    wrong = not np.array_equal(*outs)  # onnxoptimizer 0.4.2's eliminate_slice_after_shape ignores Shape's start
    onnx.save(model, tmp_path / "m.onnx")
    main(
        [
            "check",
            str(tmp_path / "m.onnx"),
            "--pass",
            "onnxoptimizer:optimize",
            "--json",
            str(tmp_path / "r.json"),
            "-q",
        ]
    )
    kinds = [f["kind"] for c in json.loads((tmp_path / "r.json").read_text())["results"] for f in c.get("findings", [])]
    assert ("wrong-result" in kinds) == wrong, kinds
    if not wrong:
        pytest.skip(f"onnxoptimizer {onnxoptimizer.__version__} computes Shape(start) + Slice right")
    assert main(["triage", str(tmp_path / "r.json"), "--out", str(tmp_path / "t"), "--reduce-seconds", "0"]) == 0
    folder = next(p for p in sorted((tmp_path / "t").iterdir()) if p.is_dir() and "onnxoptimizer" in p.name)
    cand = json.loads((folder / "candidate.json").read_text())
    assert cand["status"] == "reproduced", cand["why"]
    md = (folder / "REPORT.md").read_text()
    assert (
        f"- onnxoptimizer {onnxoptimizer.__version__}\n" in md
        and "pip install onnx onnxruntime numpy onnxoptimizer" in md
    )
    assert "still in onnxoptimizer " + onnxoptimizer.__version__ in md and "Shape <start: int = 1> (x)" in md
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run(
        [sys.executable, "-I", "repro.py"], cwd=folder, capture_output=True, text=True, timeout=300, env=env
    )
    assert r.returncode == 1 and f"onnxoptimizer {onnxoptimizer.__version__}" in r.stdout, r.stdout + r.stderr
