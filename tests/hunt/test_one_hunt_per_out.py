"""One hunt at a time in an ``--out`` folder (passcheck/hunt/store.py): a second ``passcheck hunt`` on a folder
another hunt is using (``--resume`` included, which the saved-state check lets through) is refused in one line
before any item (exit 2), instead of trying the same items again and writing ``hunt-state.json`` over the other's."""

from __future__ import annotations

import subprocess
import sys
import time

from tests.reliability.test_save_run_interrupted import WAIT

DEADLINE = 300.0


def _hunt(tmp, *extra: str) -> list[str]:
    waiting = f"cmd:{sys.executable} {tmp / 'wait.py'} {{in}} {{out}}"
    return [sys.executable, "-m", "passcheck", "hunt", "--out", str(tmp / "h"), "--budget", "1items", "--seed", "1",
            "--pass", waiting, "--case", "optional-input/conv-add", "--no-coverage", "--no-variation", "-q",
            *extra]  # fmt: skip


def test_a_second_hunt_on_an_out_folder_in_use_is_refused_before_any_item(tmp_path):
    (tmp_path / "wait.py").write_text(WAIT, encoding="utf-8")
    (tmp_path / "block").touch()
    first = subprocess.Popen(_hunt(tmp_path), cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    second = None
    try:
        deadline = time.monotonic() + DEADLINE
        while not (tmp_path / "started").exists():  # the first hunt is inside its first item
            assert first.poll() is None and time.monotonic() < deadline, first.stderr.read()
            time.sleep(0.05)
        (tmp_path / "started").unlink()
        second = subprocess.Popen(_hunt(tmp_path, "--resume"), cwd=tmp_path, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while second.poll() is None and not (tmp_path / "started").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        ran_an_item = (tmp_path / "started").exists()
    finally:
        (tmp_path / "block").unlink()
    _, err2 = second.communicate(timeout=DEADLINE)
    _, err1 = first.communicate(timeout=DEADLINE)
    assert not ran_an_item, err2
    assert second.returncode == 2, err2
    lines = err2.strip().splitlines()
    assert len(lines) == 1 and "another passcheck hunt is using" in lines[0], err2
    assert first.returncode in (0, 1), err1
    again = subprocess.run(_hunt(tmp_path, "--resume"), cwd=tmp_path, capture_output=True, text=True, timeout=DEADLINE)
    assert again.returncode in (0, 1), again.stderr  # the folder is free once the first hunt ended
