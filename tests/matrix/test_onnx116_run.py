"""On a real onnx 1.16 environment (ci/envs/onnx-1.16.txt), ``run`` over cases whose ``""``
spellings onnx 1.16's parser cannot read builds them (parsed under a stand-in name, then emptied:
passcheck.cases.builders) and judges every form (issue 18.6 skipped them with the parser's reason).
Needs the package index (creates the pinned environment)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from passcheck.matrix import create, envs

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.matrix


def test_run_on_onnx_116_builds_the_empty_name_spellings_its_parser_rejects(tmp_path):
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / "onnx-1.16.txt"), REPO)
    out = tmp_path / "r.json"
    p = subprocess.run(
        [
            str(env.python),
            "-m",
            "passcheck",
            "run",
            "--case",
            "optional-input/squeeze-axes",
            "--case",
            "attributes/conv-defaults",
            "--pass",
            "ort:basic",
            "--json",
            str(out),
            "-q",
            "--progress",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert p.returncode in (0, 1), p.stderr
    cells = json.loads(out.read_text())["results"]
    squeeze = [c for c in cells if c["case"] == "optional-input/squeeze-axes"]
    assert {c["form"] for c in squeeze} >= {"common", "empty-name"}
    assert not {"skipped", "unavailable"} & {c["status"] for c in squeeze}, squeeze
    assert all("ParseError" not in (c["error"] or "") for c in squeeze)
    good = [c for c in cells if c["case"] == "attributes/conv-defaults"]
    assert good and "skipped" not in {c["status"] for c in good}


def test_onnxscript_passes_run_on_the_ir_onnxscript_0_1_bundles(tmp_path):
    """onnxscript 0.1.0 has no onnx-ir dependency (its IR is onnxscript.ir) and its optimize_for_ort returns
    None: its three passes run (passcheck.passes.onnxscript_ir), none is 'unavailable: onnx-ir is not installed'."""
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / "onnx-1.16.txt"), REPO)
    out = tmp_path / "r.json"
    passes = ("onnxscript:optimize", "onnxscript:rewrite", "onnxscript:optimize-for-ort")
    p = subprocess.run(
        [str(env.python), "-m", "passcheck", "run", "--case", "optional-input/conv-bn", "--json", str(out), "-q"]
        + [a for pid in passes for a in ("--pass", pid)]
        + ["--progress", "none"],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert p.returncode in (0, 1), p.stderr
    cells = [c for c in json.loads(out.read_text())["results"] if c["pass_id"] in passes]
    assert {c["pass_id"] for c in cells} == set(passes)
    assert all(c["status"] in ("changed", "unchanged") for c in cells), [(c["pass_id"], c["error"]) for c in cells]
    assert {c["versions"]["onnxscript"] for c in cells} == {"0.1.0"}


def test_a_fusion_level_onnxruntime_1_18_does_not_run_is_not_a_finding(tmp_path):
    """onnxruntime 1.18.1 runs GeluFusion at Level2 only (Level1 since microsoft/onnxruntime#21332): the case's
    statement about ort:basic is not checked there (a note says why), while the one it does make (GeluFusion at
    ort:extended) still is. Before: 'expectation-failed' at ort:basic."""
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / "onnx-1.16.txt"), REPO)
    out = tmp_path / "r.json"
    p = subprocess.run(
        [str(env.python), "-m", "passcheck", "run", "--case", "fusion-gelu/gelu-erf-opset20", "--pass", "ort:basic"]
        + ["--pass", "ort:extended", "--json", str(out), "-q", "--progress", "none"],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert p.returncode in (0, 1), p.stderr
    cells = {(c["case"], c["form"], c["pass_id"]): c for c in json.loads(out.read_text())["results"]}
    gelu_basic = cells[("fusion-gelu/gelu-erf-opset20", "common", "ort:basic")]
    assert gelu_basic["versions"]["onnxruntime"] == "1.18.1"
    assert not [f for f in gelu_basic["findings"] if f["kind"] == "expectation-failed"], gelu_basic["findings"]
    assert "runs GeluFusion from ort:extended on, not at ort:basic" in gelu_basic["notes"]["expectations"]
    gelu_extended = cells[("fusion-gelu/gelu-erf-opset20", "common", "ort:extended")]
    assert "expectations" not in gelu_extended["notes"] and gelu_extended["ops_after"].get("Erf") is None


def test_a_case_no_form_of_which_onnxruntime_1_18_can_load_is_unavailable(tmp_path):
    """onnxruntime 1.18.1 registers no tensor(uint4) (onnx 1.16 defines it): no form of the 4-bit MatMulNBits case
    loads, so every cell is 'unavailable' with that reason. Before: the input cells were 'rejected' findings, every
    ort pass 'declined' (rejected) and the other cells unchecked."""
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / "onnx-1.16.txt"), REPO)
    out = tmp_path / "r.json"
    p = subprocess.run(
        [str(env.python), "-m", "passcheck", "run", "--case", "pattern-ort-qdq/matmul-4bit-bias", "--json", str(out)]
        + ["-q", "--progress", "none"],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    # nothing could be checked there: exit 1 with the reason, never 0
    assert p.returncode == 1 and "NOTHING CHECKED" in p.stdout, p.stdout + p.stderr
    cells = json.loads(out.read_text())["results"]
    assert {c["pass_id"] for c in cells} >= {"input", "ort:basic", "onnx:infer-shapes"}
    assert {c["status"] for c in cells} == {"unavailable"}, {(c["form"], c["pass_id"], c["status"]) for c in cells}
    assert all("does not register the element type tensor(uint4)" in c["error"] for c in cells)
    assert not [f for c in cells for f in c["findings"]]
