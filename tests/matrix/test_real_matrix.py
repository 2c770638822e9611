"""A real matrix: two pinned environments (the oldest onnx and the newest) created with uv,
workers on the same model bytes, the seed's cross-version bug, crashes, hangs, resume, shards."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from passcheck.cli import main
from passcheck.matrix import report, schemas
from passcheck.report import read_report
from tests._shared import built_once

REPO = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).with_name("planted_passes.py")
# schemas/released: the released-schema cells, which a --case selection has only when it names them
CASES = ["--case", "constant/pad-pads-opset17", "--case", "optional-input/conv-bn", "--case", "schemas/released"]
PASSES = ["--pass", "onnx:infer-shapes-strict", "--pass", "ort:basic"]
ENVS = ["--env", "onnx-1.18", "--env", "onnx-1.23"]
pytestmark = pytest.mark.matrix  # creates pinned uv environments: pytest -m "not matrix" skips this file


def matrix(out, *args):
    return main(
        [
            "matrix",
            *args,
            "--out",
            str(out),
            "--source",
            str(REPO),
            "--progress",
            "lines",
            "-q",
            "--envs-dir",
            str(REPO / "ci" / "envs"),
        ]
    )


def by_key(cells):
    return {(c.case, c.form, c.pass_id, c.env): c for c in cells}


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """(folder, exit code, cells by key, envs) of the unsharded run, built once per test run (tests/_shared.py):
    read it, copy it to change it."""
    out, code = built_once(tmp_path_factory, "matrix-full", lambda d: matrix(d, *ENVS, *CASES, *PASSES, "--jobs", "2"))
    cells, envs = read_report(out / "report.json")
    return out, code, by_key(cells), envs


def test_value_ints_pad_rejected_on_old_onnx_only(full):
    out, code, cells, envs = full
    assert code == 1
    assert envs["onnx-1.18"]["onnx"] == "1.18.0" and envs["onnx-1.23"]["onnx"] == "1.23.2"
    old = cells[("constant/pad-pads-opset17", "value-ints", "onnx:infer-shapes-strict", "onnx-1.18")]
    new = cells[("constant/pad-pads-opset17", "value-ints", "onnx:infer-shapes-strict", "onnx-1.23")]
    assert old.verdict == "findings" and "'pads' input must be a 1D" in old.error
    assert new.verdict == "ok"
    for form in ("common", "value-tensor"):
        for env in ("onnx-1.18", "onnx-1.23"):
            assert cells[("constant/pad-pads-opset17", form, "onnx:infer-shapes-strict", env)].verdict == "ok"
    doc = json.loads((out / "report.json").read_text())
    heads = [d for d in doc["matrix"]["differences"] if d["headline"]]
    strict = [d for d in heads if d["pass_id"] == "onnx:infer-shapes-strict"]
    assert strict and strict[0]["form"] == "value-ints" and "ShapeInferenceError" in strict[0]["why"]["onnx-1.18"]
    assert "--env onnx-1.18" in strict[0]["repro"]["onnx-1.18"]
    assert "headline" in (out / "report.md").read_text()


def test_conv_empty_bias_parity_finding_in_every_env(full):
    _, _, cells, _ = full
    for env in ("onnx-1.18", "onnx-1.23"):
        c = cells[("optional-input/conv-bn", "empty-name", "ort:basic", env)]
        assert any(f.kind == "missed-optimization" and f.oracle == "parity" for f in c.findings), c.findings
        assert all(f"--env {env}" in f.repro for f in c.findings)


def test_every_env_ran_the_same_bytes(full):
    out, _, cells, _ = full
    manifest = json.loads((out / "models" / "manifest.json").read_text())
    sha = {(c["id"], f): v["sha256"] for c in manifest["cases"] for f, v in c["forms"].items()}
    # the planned cells, and onnx-1.18's released schemas judged against onnx 1.23's (passcheck.matrix.schemas)
    assert len([k for k in cells if k[0] != schemas.CASE]) == 2 * (3 * 3 + 2 * 3)
    assert {k[3] for k in cells if k[0] == schemas.CASE} == {"onnx-1.18"}
    for (case, form, _p, _e), c in cells.items():
        if case == schemas.CASE:
            continue
        assert c.model_sha256 == sha[(case, form)]
    xml = (out / "report.xml").read_text()
    assert xml.count("<testcase") == len(cells) and "value-ints | onnx:infer-shapes-strict | onnx-1.18" in xml


def test_resume_runs_only_missing_cells(full, tmp_path, capfd):
    out = tmp_path / "resumed"
    shutil.copytree(full[0], out)
    lines = (out / "results.jsonl").read_text().splitlines(keepends=True)
    cell_lines = [i for i, x in enumerate(lines) if '"type": "cell"' in x and schemas.CASE not in x]
    kept = "".join(lines[: cell_lines[-5]])
    (out / "results.jsonl").write_text(kept)
    capfd.readouterr()
    assert matrix(out, *ENVS, *CASES, *PASSES, "--resume") == 1
    assert "30 cells planned, 25 already done" in capfd.readouterr().err
    assert (out / "results.jsonl").read_text().startswith(kept)
    cells, _ = read_report(out / "report.json")
    assert {k: c.verdict for k, c in by_key(cells).items()} == {k: c.verdict for k, c in full[2].items()}


def test_a_second_run_on_one_out_keeps_the_unchanged_cells(full, tmp_path, capfd):
    """Same model bytes, pins and passcheck source: nothing is run again (passcheck/matrix/reuse.py)."""
    out = tmp_path / "again"
    shutil.copytree(full[0], out)
    capfd.readouterr()
    assert matrix(out, *ENVS, *CASES, *PASSES) == 1
    err = capfd.readouterr().err
    assert "30 cells kept from" in err, err
    cells, envs = read_report(out / "report.json")
    assert {k: c.verdict for k, c in by_key(cells).items()} == {k: c.verdict for k, c in full[2].items()}
    assert {k: c.seconds for k, c in by_key(cells).items()} == {k: c.seconds for k, c in full[2].items()}  # not re-run
    assert envs == full[3]


def test_shards_merge_into_the_full_report(full, today_shards, tmp_path):
    s1, s2 = today_shards  # the same plan in two shards (tests/matrix/conftest.py)
    one = by_key(read_report(Path(s1) / "report.json")[0])
    assert one and set(one).isdisjoint(by_key(read_report(Path(s2) / "report.json")[0]))
    assert main(["merge", s1, s2, "--out", str(tmp_path / "m"), "-q"]) == 1
    merged = by_key(read_report(tmp_path / "m" / "report.json")[0])
    # the shards' plan (SELECTION) asks for no `schemas/released` rows, which a `--case` run gets only when asked
    # (M550); the full run asks for them, so they are left out of the comparison
    planned = {k: c.verdict for k, c in full[2].items() if k[0] != "schemas/released"}
    assert {k: c.verdict for k, c in merged.items()} == planned
    assert report.differences(merged.values())


def test_crashing_and_hanging_passes_cost_exactly_their_cells(tmp_path):
    out = tmp_path / "planted"
    passes = [
        "--pass",
        "ort:basic",
        "--pass",
        "planted:segfault",
        "--pass",
        "planted:hang",
        "--pass",
        "onnx:infer-shapes",
    ]
    matrix(
        out,
        "--env",
        "onnx-1.23",
        "--case",
        "constant/pad-pads-opset17",
        "--cases-from",
        str(PLANTED),
        *passes,
        "--timeout",
        "6",
    )
    cells = by_key(read_report(out / "report.json")[0])
    assert len(cells) == 5 * 3
    for (_case, form, pass_id, _env), c in cells.items():
        if pass_id == "planted:segfault":
            assert c.status == "crashed" and "SIGSEGV" in c.error and c.verdict == "findings"
        elif pass_id == "planted:hang":
            # killed by the environment's pass worker (0.8 x --timeout), or by the parent's watchdog when a
            # loaded machine delays that worker's answer past --timeout since the worker's last line
            assert c.status == "timeout"
            assert any(t in c.error for t in ("no result after 4.8 s", "no result within 6 s")), c.error
        else:
            assert c.status not in ("crashed", "timeout") and c.verdict == "ok", (pass_id, form, c.error)


def test_a_slow_worker_start_is_not_charged_to_the_first_case(tmp_path, monkeypatch):
    """Each process of an environment imports the --cases-from module at its start, 6 s here, above --timeout 5:
    the matrix worker before its first case marker, its pass worker too, since it is started (and waited for)
    before that marker. Were it started at the first case's first run, that case's input cells would time out."""
    monkeypatch.setenv("PASSCHECK_TEST_SLOW_IMPORT", "6")
    out = tmp_path / "slow"
    code = matrix(
        out,
        "--env",
        "onnx-1.23",
        "--case",
        "optional-input/conv-bn",
        "--cases-from",
        str(PLANTED.with_name("slow_import.py")),
        "--pass",
        "onnx:infer-shapes",
        "--timeout",
        "5",
    )
    cells, _ = read_report(out / "report.json")
    assert cells and all(c.status not in ("crashed", "timeout") for c in cells), [
        (c.form, c.pass_id, c.error) for c in cells if c.status in ("crashed", "timeout")
    ]
    assert code in (0, 1)


def test_ctrl_c_leaves_a_valid_partial_report(tmp_path):
    out = tmp_path / "interrupted"
    cmd = [
        sys.executable,
        "-m",
        "passcheck",
        "matrix",
        "--env",
        "onnx-1.23",
        "--case",
        "constant/pad-pads-opset17",
        "--cases-from",
        str(PLANTED),
        "--pass",
        "planted:hang",
        "--out",
        str(out),
        "--source",
        str(REPO),
        "--envs-dir",
        str(REPO / "ci" / "envs"),
        "--progress",
        "lines",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    # Signal once the three input cells are recorded: the planted hang is the only work left.
    # (The environment may be created or updated first: a generous deadline, and a clear failure.)
    deadline = time.monotonic() + 600
    while _read(out / "results.jsonl").count('"type": "cell"') < 3 and proc.poll() is None:
        assert time.monotonic() < deadline, "no input cells after 600 s"
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()[1]
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    cells, _ = read_report(out / "report.json")
    assert {c.pass_id for c in cells} == {"input"} and len(cells) == 3


def _read(p: Path) -> str:
    try:
        return p.read_text()
    except OSError:
        return ""


def test_parent_without_onnx_builds_models_in_the_first_env(tmp_path):
    argv = [
        "matrix",
        "--env",
        "onnx-1.18",
        "--case",
        "constant/pad-pads-opset17",
        "--pass",
        "onnx:infer-shapes-strict",
        "--out",
        str(tmp_path / "o"),
        "--source",
        str(REPO),
        "--envs-dir",
        str(REPO / "ci" / "envs"),
        "-q",
    ]
    code = (
        "import sys; sys.modules['onnx'] = sys.modules['onnxruntime'] = None; from passcheck.cli import main; "
        f"sys.exit(main({argv!r}))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env={**os.environ}
    )
    assert proc.returncode == 1, proc.stderr  # the value-ints finding on onnx 1.18
    manifest = json.loads((tmp_path / "o" / "models" / "manifest.json").read_text())
    assert manifest["built_with"]["onnx"] == "1.18.0" and len(read_report(tmp_path / "o" / "report.json")[0]) == 6
