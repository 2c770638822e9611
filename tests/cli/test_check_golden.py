"""README's main job (``check MODEL --mutations --pass ort:basic``) gives the same JSON report as
the one recorded in ``golden/check_conv2d_mutations.json``, on a small model the onnx wheel ships
(``pytorch-converted/test_Conv2d``: one Conv; ResNet-50 takes minutes), and a run of three
generated cases (:data:`GENERATED`) the one in ``golden/run_generated_relu.json``: the same forms and sites,
the same mutant bytes (``model_sha256``), pass statuses, op counts, findings, coverage and
verdicts. A speed change (cached sessions, model bytes sent once, reused workers) must not move any
of them (issue 28).

Left out of the comparison, as they change from run to run or with nothing passcheck decides:
every ``seconds`` (timings), each cell's ``versions`` and the report's ``environments`` (tool
versions: the golden is only compared under the onnx, onnxruntime and onnxscript it was recorded
with, skipped with the reason otherwise); the installed onnx package's folder in a string (a finding's
``repro`` names the model by its path) is written ``<onnx>``. Re-record after an intended change with
``PASSCHECK_UPDATE_GOLDEN=1 pytest -n 0 tests/cli/test_check_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

MODEL = Path(onnx.__file__).parent / "backend/test/data/pytorch-converted/test_Conv2d/model.onnx"
GOLDEN = Path(__file__).parent / "golden" / "check_conv2d_mutations.json"
TOOLS = ("onnx", "onnxruntime", "onnxscript")
#: fields that are timings or tool versions, dropped wherever they occur
VOLATILE = {"seconds", "versions", "environments"}
#: where this install keeps onnx (and so the model): a path in a repro line differs from venv to venv
ONNX_DIR = str(Path(onnx.__file__).parent)


def normalized(value):
    """``value`` (a parsed report) without the :data:`VOLATILE` fields, at any depth, and with
    :data:`ONNX_DIR` written ``<onnx>`` in every string."""
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    if isinstance(value, str):
        return value.replace(ONNX_DIR, "<onnx>")
    return value


def _tool_versions(report: dict) -> dict:
    env = next(iter(report["environments"].values()))
    return {t: env.get(t) for t in TOOLS}


def test_normalized_drops_timings_and_versions_at_any_depth():
    doc = {"environments": {"local": {}}, "results": [{"seconds": 1.5, "versions": {"onnx": "1"}, "verdict": "ok"}]}
    assert normalized(doc) == {"results": [{"verdict": "ok"}]}
    assert normalized({"repro": f"passcheck check {MODEL} --pass ort:basic"}) == {
        "repro": "passcheck check <onnx>/backend/test/data/pytorch-converted/test_Conv2d/model.onnx --pass ort:basic"
    }


#: Generated cases (one per spelling kind: dtype, rank, opset) under their default passes: the
#: worker's job protocol, batching and kept models are crossed by every pass, run and checker call.
GENERATED = ("generated/relu-14.dtype.float16", "generated/relu-13.rank.0", "generated/relu-6.opset")


def _golden_report(tmp_path, argv: list[str], golden: Path) -> None:
    """Run ``passcheck ARGV --json`` and compare its normalized report with ``golden``."""
    out = tmp_path / "report.json"
    p = subprocess.run(
        [sys.executable, "-m", "passcheck", *argv, "--json", str(out), "-q", "--progress", "none"],
        capture_output=True,
        text=True,
    )
    assert p.returncode in (0, 1), p.stderr[-2000:]
    report = json.loads(out.read_text())
    got = {"tools": _tool_versions(report), "report": normalized(report)}
    if os.environ.get("PASSCHECK_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    want = json.loads(golden.read_text())
    if got["tools"] != want["tools"]:
        pytest.skip(f"the golden report was recorded with {want['tools']}, these tools are {got['tools']}")
    assert got["report"]["summary"] == want["report"]["summary"]
    cells = {(c["case"], c["form"], c["pass_id"]): c for c in got["report"]["results"] if c.get("type") == "cell"}
    wanted = {(c["case"], c["form"], c["pass_id"]): c for c in want["report"]["results"] if c.get("type") == "cell"}
    assert sorted(cells) == sorted(wanted)
    for key, cell in wanted.items():
        assert cells[key] == cell, key
    assert got["report"] == want["report"]


@pytest.mark.slow
def test_check_mutations_report_matches_the_golden_file(tmp_path):
    _golden_report(tmp_path, ["check", str(MODEL), "--mutations", "--pass", "ort:basic"], GOLDEN)


@pytest.mark.slow
def test_generated_run_report_matches_the_golden_file(tmp_path):
    argv = ["run"] + [a for case in GENERATED for a in ("--case", case)]
    _golden_report(tmp_path, argv, GOLDEN.with_name("run_generated_relu.json"))
