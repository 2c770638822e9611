"""One matrix run at a time in an ``--out`` folder (passcheck/matrix/runner.py): a second ``passcheck matrix`` on
a folder another run is using is refused in one line before it touches it (exit 2). It used to start by unlinking
``results.jsonl``, so every cell the first run wrote after that went to a file no name reached, and the first run's
report lost them. Every environment is this interpreter (tests/matrix/local_matrix.py): no uv environment is built."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from passcheck.report import read_report
from tests.reliability.test_save_run_interrupted import WAIT

REPO = Path(__file__).resolve().parents[2]
LOCAL = Path(__file__).with_name("local_matrix.py")
DEADLINE = 300.0


def _matrix(tmp: Path, *passes: str) -> list[str]:
    argv = [sys.executable, str(LOCAL), "matrix", "--out", str(tmp / "out"), "--source", str(REPO),
            "--envs-dir", str(REPO / "ci" / "envs"), "--env", "onnx-1.23", "--case", "optional-input/conv-add",
            "--jobs", "1", "-q"]  # fmt: skip
    for p in passes:
        argv += ["--pass", p]
    return argv


def _env(tmp: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        "LOCAL_MATRIX_ROOT": str(tmp / "envs"),
    }


def test_a_second_matrix_on_an_out_folder_in_use_is_refused_and_the_first_keeps_its_cells(tmp_path):
    (tmp_path / "wait.py").write_text(WAIT, encoding="utf-8")
    (tmp_path / "block").touch()
    waiting = f"cmd:{sys.executable} {tmp_path / 'wait.py'} {{in}} {{out}}"
    first = subprocess.Popen(
        _matrix(tmp_path, "onnx:infer-shapes", waiting), cwd=tmp_path, env=_env(tmp_path), stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + DEADLINE
        while not (tmp_path / "started").exists():  # the first run is inside its passes, writing results.jsonl
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        second = subprocess.run(
            _matrix(tmp_path, "onnx:infer-shapes"),
            cwd=tmp_path,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=DEADLINE,
        )
    finally:
        (tmp_path / "block").unlink()
    _, err = first.communicate(timeout=DEADLINE)
    assert second.returncode == 2, second.stderr
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and "another passcheck matrix is using" in lines[0], second.stderr
    assert first.returncode in (0, 1), err
    cells, _ = read_report(tmp_path / "out" / "report.json")
    assert {c.pass_id for c in cells} >= {"onnx:infer-shapes", waiting}, {c.pass_id for c in cells}


def test_a_usage_error_leaves_no_out_folder_it_made_and_keeps_one_it_found(tmp_path):
    argv = [*_matrix(tmp_path, "onnx:infer-shapes"), "--case", "no-such/case"]
    r = subprocess.run(argv, cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=DEADLINE)
    assert r.returncode == 2 and "unknown case id 'no-such/case'" in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.txt").write_text("kept", encoding="utf-8")
    r = subprocess.run(argv, cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=DEADLINE)
    assert r.returncode == 2, r.stderr
    assert (tmp_path / "out" / "mine.txt").read_text(encoding="utf-8") == "kept"
