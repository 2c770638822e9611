"""One ``--save-run`` folder has one writer at a time (passcheck/saved_runs.py ``Recorder``): a second run
saving into a folder another run is saving into is refused in one line before any work (exit 2), so the first
run's groups stay after its own run-start line and ``report --rejudge`` judges that run alone. Two runs writing
at once used to interleave their groups after both run-start lines, and the rejudged "latest run" mixed the two
while saying the other one was left out."""

from __future__ import annotations

import subprocess
import sys
import time

from onnx import parser

from passcheck.saved_runs import rejudge, saved_runs
from tests.reliability.test_save_run_interrupted import MODEL, WAIT

DEADLINE = 300.0


def _check(tmp, *passes: str) -> list[str]:
    argv = [sys.executable, "-m", "passcheck", "check", str(tmp / "m.onnx"), "-q", "--timeout", "150"]
    for p in passes:
        argv += ["--pass", p]
    return [*argv, "--save-run", str(tmp / "saved")]


def test_a_second_run_saving_into_a_folder_in_use_is_refused_before_any_work(tmp_path):
    (tmp_path / "m.onnx").write_bytes(parser.parse_model(MODEL).SerializeToString())
    (tmp_path / "wait.py").write_text(WAIT, encoding="utf-8")
    (tmp_path / "block").touch()
    waiting = f"cmd:{sys.executable} {tmp_path / 'wait.py'} {{in}} {{out}}"
    first = subprocess.Popen(_check(tmp_path, "onnx:infer-shapes", waiting), cwd=tmp_path, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + DEADLINE
        while not (tmp_path / "started").exists():  # the first run is inside its passes, saving there
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        second = subprocess.run(
            _check(tmp_path, "onnx:infer-shapes"), cwd=tmp_path, capture_output=True, text=True, timeout=DEADLINE
        )
    finally:
        (tmp_path / "block").unlink()
    _, err = first.communicate(timeout=DEADLINE)
    assert first.returncode == 0, err
    assert second.returncode == 2, second.stderr
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and "another passcheck run is saving" in lines[0], second.stderr
    assert len(saved_runs(tmp_path / "saved")) == 1  # the first run's groups, alone
    assert {c.pass_id for c in rejudge(tmp_path / "saved")} == {"input", "onnx:infer-shapes", waiting}


def test_the_folder_is_free_again_once_its_run_ended(tmp_path):
    (tmp_path / "m.onnx").write_bytes(parser.parse_model(MODEL).SerializeToString())
    for _ in range(2):
        r = subprocess.run(_check(tmp_path, "onnx:infer-shapes"), capture_output=True, text=True, timeout=DEADLINE)
        assert r.returncode == 0, r.stderr
    runs = saved_runs(tmp_path / "saved")
    assert len(runs) == 2 and runs[0]["groups"] == runs[1]["groups"] > 0, runs
