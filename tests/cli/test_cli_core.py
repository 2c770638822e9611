"""The CLI front end: exit codes, outputs, baselines, one-line errors.

``run`` with its three report files goes through the console script; the rest calls the CLI's entry in this
process (:mod:`tests._inproc`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

from passcheck.cli import main
from tests._inproc import cli

LIGHT = Path(onnx.__file__).parent / "backend/test/data/light"


def _console_script(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "passcheck", *args], capture_output=True, text=True, cwd=cwd)


def test_list_shows_cases_tags_and_passes(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "optional-input/conv-bn" in out and "empty-name" in out
    assert main(["list", "--tags"]) == 0
    assert "shape" in capsys.readouterr().out
    assert main(["list", "--passes"]) == 0
    assert "ort:symbolic-shape-infer" in capsys.readouterr().out


def test_run_reports_findings_with_repro_and_writes_reports(tmp_path):
    j, x, m = tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "r.md"
    p = _console_script(
        "run",
        "--case",
        "optional-input/conv-bn",
        "--pass",
        "ort:basic",
        "--json",
        str(j),
        "--junit",
        str(x),
        "--markdown",
        str(m),
    )
    assert p.returncode == 1, p.stderr
    assert "parity: [missed-optimization]" in p.stdout
    assert "reproduce: passcheck run --case optional-input/conv-bn --pass ort:basic" in p.stdout
    doc = json.loads(j.read_text())
    assert doc["summary"]["unexpected"] == 1
    assert all(r["versions"].get("onnxruntime") for r in doc["results"] if r["pass_id"] == "ort:basic")
    assert len({r["model_sha256"] for r in doc["results"]}) == 2
    junit = x.read_text()
    assert "<failure" in junit and 'classname="optional-input/conv-bn"' in junit
    assert "| `optional-input/conv-bn` | empty-name |" in m.read_text()


def test_baseline_turns_known_findings_into_expected(tmp_path):
    base = tmp_path / "known.json"
    first = cli("run", "--case", "optional-input/conv-bn", "--pass", "ort:basic", "--write-baseline", str(base))
    assert first.returncode == 1
    ids = [k["id"] for k in json.loads(base.read_text())["known"]]
    assert ids == ["optional-input/conv-bn:empty-name|ort:basic|parity|missed-optimization"]
    again = cli("run", "--case", "optional-input/conv-bn", "--pass", "ort:basic", "--baseline", str(base))
    assert again.returncode == 0, again.stdout
    assert "KNOWN" in again.stdout
    # an entry that matches nothing is listed as fixed/not run
    base.write_text(json.dumps({"known": [{"id": "nope:*", "reason": "gone"}]}))
    p = cli("run", "--case", "optional-input/conv-relu", "--pass", "ort:basic", "--baseline", str(base))
    assert p.returncode == 0 and "matched nothing" in p.stdout


@pytest.mark.parametrize(
    "args,needle",
    [
        (["run", "--pass", "ort:basik"], "did you mean 'ort:basic'"),
        (["run", "--case", "optional-inptu/*"], "unknown case id"),
        (["check", "/nonexistent/model.onnx"], "no such file"),
        (["run", "--bogus"], "unrecognized arguments"),
        (["check", str(LIGHT / "light_squeezenet.onnx"), "--bind", "N=3"], "no symbolic dim 'N'"),
        (
            ["run", "--baseline", "/nonexistent.json", "--case", "optional-input/conv-relu", "--pass", "ort:basic"],
            "cannot read baseline",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, needle):
    p = cli(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert "Traceback" not in p.stderr


def test_check_real_model(tmp_path):
    j = tmp_path / "c.json"
    p = cli(
        "check",
        str(LIGHT / "light_squeezenet.onnx"),
        "--pass",
        "ort:basic",
        "--pass",
        "onnx:infer-shapes",
        "--json",
        str(j),
    )
    # onnxruntime saves this IR-3 model with initializers missing from graph.input: the checker
    # rejects the output, which then fails to run (one root cause); shape inference is clean.
    assert p.returncode == 1, p.stderr
    assert "Traceback" not in p.stderr
    doc = json.loads(j.read_text())
    assert {r["pass_id"] for r in doc["results"]} == {"input", "ort:basic", "onnx:infer-shapes"}
    found = {(f["pass_id"], f["kind"]) for r in doc["results"] for f in r["findings"]}
    assert found == {("ort:basic", "invalid-model"), ("ort:basic", "wrong-result")}, found
    assert doc["summary"]["unexpected"] == 2 and doc["summary"]["root_causes"] == 1
    assert "reproduce: passcheck check " in p.stdout and "--pass ort:basic" in p.stdout


def test_report_rerenders_json(tmp_path):
    j = tmp_path / "r.json"
    cli("run", "--case", "optional-input/conv-add", "--pass", "ort:extended", "--json", str(j))
    p = cli("report", str(j), "--format", "markdown")
    assert p.returncode == 0 and "## Findings" in p.stdout  # re-rendered: the findings are not a new failure
    assert cli("report", str(j), "--format", "markdown", "--fail-on-findings").returncode == 1
