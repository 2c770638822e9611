"""An interrupted run (SIGTERM, Ctrl-C) leaves a valid partial report and --resume completes it
to the same final report as an uninterrupted run (issue 8.3).

Only the interrupted run is a ``python -m passcheck`` subprocess (the signal is sent to the program, whose own
handlers turn it into exit 130); the uninterrupted run, the resumes and the refused resumes run through
``passcheck.cli.main`` in the test's process (tests/_inproc.py): the same command, its report and stream, without
an interpreter start, the imports and a new isolation worker each (eight of them per run of this file)."""

from __future__ import annotations

import importlib.util
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from passcheck.records import INTERRUPTED
from tests._inproc import cli
from tests._shared import built_once

_spec = importlib.util.spec_from_file_location("_planted_source", Path(__file__).with_name("test_isolation.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
PLANTED = _mod.PLANTED

PASSES = ["planted:ok", "planted:nap", "planted:segv", "onnx:infer-shapes"]


def _argv(tmp: Path, name: str, *extra: str, planted: Path | None = None) -> list[str]:
    """The arguments of ``passcheck run`` of the planted cases under PASSES, its report ``tmp/NAME.json``; the
    planted module is written to ``tmp/planted.py`` unless ``planted`` names one already written."""
    if planted is None:
        planted = tmp / "planted.py"
        planted.write_text(PLANTED)
    argv = [
        "run",
        "--cases-from",
        str(planted),
        "--case",
        "planted/*",
        "--case",
        "constant/pad-pads-opset17",
        "--timeout",
        "60",
        "-q",
        "--json",
        str(tmp / f"{name}.json"),
        *extra,
    ]
    for p in PASSES:
        argv += ["--pass", p]
    return argv


def _cells_in(stream: Path) -> int:
    if not stream.exists():
        return 0
    return sum('"type": "cell"' in line for line in stream.read_text().splitlines())


def _comparable(path: Path) -> dict:
    doc = json.loads(path.read_text())
    for c in doc["results"]:
        c.pop("seconds")
    return doc


def _uninterrupted(folder: Path) -> dict:
    full = cli(*_argv(folder, "full", "--stream", str(folder / "s.jsonl")), cwd=folder)
    return {"returncode": full.returncode, "stderr": full.stderr}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> tuple[Path, dict]:
    """(folder, its returncode and stderr): one uninterrupted run with ``--stream`` (``folder/full.json``,
    ``folder/s.jsonl``, the planted module ``folder/planted.py``), made once per test run (``built_once``) for
    the tests here, which read it and write below their own ``tmp_path``."""
    return built_once(tmp_path_factory, "reliability-resume-uninterrupted", _uninterrupted)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_interrupted_run_resumes_to_the_uninterrupted_report(tmp_path, sig, uninterrupted):
    shared, full = uninterrupted
    assert full["returncode"] == 1, full["stderr"]
    planted = shared / "planted.py"
    total = len(json.loads((shared / "full.json").read_text())["results"])

    stream = tmp_path / "s.jsonl"
    proc = subprocess.Popen(  # the program itself: its signal handlers, its exit code 130
        [sys.executable, "-m", "passcheck", *_argv(tmp_path, "part", "--stream", str(stream), planted=planted)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    deadline = time.monotonic() + 240
    while _cells_in(stream) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(sig)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    partial = json.loads((tmp_path / "part.json").read_text())
    # pass outputs produced but not judged yet are in the partial report (unchecked), not in the stream
    judged = [c for c in partial["results"] if INTERRUPTED not in c["unchecked"]]
    assert partial["partial"] is True and 3 <= len(judged) < total
    assert _cells_in(stream) == len(judged)

    resumed = cli(*_argv(tmp_path, "part", "--stream", str(stream), "--resume", planted=planted), cwd=tmp_path)
    assert resumed.returncode == 1, resumed.stderr
    assert _cells_in(stream) == total  # finished cells were not redone
    full_doc, resumed_doc = _comparable(shared / "full.json"), _comparable(tmp_path / "part.json")
    assert "partial" not in resumed_doc
    assert sorted(json.dumps(c, sort_keys=True) for c in resumed_doc["results"]) == sorted(
        json.dumps(c, sort_keys=True) for c in full_doc["results"]
    )
    # and the resumed report is in canonical order: a second resume changes nothing
    again = cli(*_argv(tmp_path, "again", "--stream", str(stream), "--resume", planted=planted), cwd=tmp_path)
    assert again.returncode == 1 and _cells_in(stream) == total
    assert _comparable(tmp_path / "again.json")["results"] == resumed_doc["results"]


def test_torn_last_line_is_ignored_and_resume_checks_the_selection(tmp_path, uninterrupted):
    shared, first = uninterrupted
    assert first["returncode"] == 1, first["stderr"]
    planted = shared / "planted.py"
    stream = tmp_path / "s.jsonl"
    lines = (shared / "s.jsonl").read_text().splitlines()
    stream.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])  # a kill mid-write
    resumed = cli(*_argv(tmp_path, "a", "--stream", str(stream), "--resume", planted=planted), cwd=tmp_path)
    assert resumed.returncode == 1, resumed.stderr
    assert _cells_in(stream) == len(lines) - 2  # header + environment lines are not cells; the torn cell was redone

    again = cli(*_argv(tmp_path, "a", "--stream", str(stream), planted=planted), cwd=tmp_path)
    assert again.returncode == 2 and "--resume" in again.stderr and len(again.stderr.strip().splitlines()) == 1
    other = cli(*_argv(tmp_path, "a", "--stream", str(stream), "--resume", "--pass", "ort:basic", planted=planted),
                cwd=tmp_path)  # fmt: skip
    assert (
        other.returncode == 2 and "different command or selection" in other.stderr and "Traceback" not in other.stderr
    )
