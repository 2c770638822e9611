"""``passcheck check --save-run`` interrupted (SIGINT, SIGTERM): the groups judged before the signal are kept in
the saved run, and ``--resume`` continues it, so ``report --rejudge`` of the folder gives the cells of an
uninterrupted run. The signal is sent at an event: the second pass (a command pass) has started and waits on a
file the test removes before resuming; the first pass's output is then computed but not judged (the engine judges
a subject's passes together), so the partial report holds it ``unchecked`` (interrupted) and the saved run does
not: only judged groups are saved, and the resumed run judges the rest. Only the interrupted run is a ``python -m
passcheck`` subprocess (the program's own signal handling); the whole run and the resume run through
``passcheck.cli.main`` in the test's process (tests/_inproc.py), the same command without an interpreter start."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from onnx import parser

from passcheck.saved_runs import LINES, rejudge
from tests._inproc import cli

MODEL = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 3] x) => (float[N, 3] y) { t = Relu(x)  y = Neg(t) }"""

#: A command pass: copies its input, after waiting while the file ``block`` beside it exists (at most 120 s); it
#: touches ``started`` first, the event the test sends its signal at.
WAIT = """import os, shutil, sys, time
here = os.path.dirname(os.path.abspath(__file__))
block = os.path.join(here, "block")
open(os.path.join(here, "started"), "w").close()
deadline = time.monotonic() + 120
while os.path.exists(block) and time.monotonic() < deadline:
    time.sleep(0.05)
shutil.copy(sys.argv[1], sys.argv[2])
"""


def _argv(tmp: Path, *extra: str) -> list[str]:
    cmd = f"cmd:{sys.executable} {tmp / 'wait.py'} {{in}} {{out}}"
    return ["check", str(tmp / "m.onnx"), "-q", "--pass", "onnx:infer-shapes", "--pass", cmd, "--timeout", "150",
            *extra]  # fmt: skip


def _cells(stream: Path) -> list[dict]:
    lines = stream.read_text(encoding="utf-8").splitlines() if stream.exists() else []
    return [json.loads(x) for x in lines if '"type": "cell"' in x]


def _key(c) -> tuple:
    return (c["case"], c["form"], c["pass_id"]) if isinstance(c, dict) else (c.case, c.form, c.pass_id)


@pytest.mark.parametrize("sig", [signal.SIGTERM])  # the CLI turns it into the KeyboardInterrupt Ctrl-C raises
def test_an_interrupted_saved_run_keeps_what_was_judged_and_resumes_to_the_whole_run(tmp_path, sig):
    (tmp_path / "m.onnx").write_bytes(parser.parse_model(MODEL).SerializeToString())
    (tmp_path / "wait.py").write_text(WAIT, encoding="utf-8")
    full = cli(*_argv(tmp_path, "--save-run", str(tmp_path / "full")), cwd=tmp_path)
    assert full.returncode == 0, full.stderr
    whole = {_key(c): c.verdict for c in rejudge(tmp_path / "full")}

    (tmp_path / "started").unlink()  # the full run's
    (tmp_path / "block").touch()
    stream, saved = tmp_path / "s.jsonl", tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "passcheck", *_argv(tmp_path, "--stream", str(stream), "--save-run",
                             str(saved))],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path)  # fmt: skip
    deadline = time.monotonic() + 240  # the event: the command pass started, waiting on `block`
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1]
        time.sleep(0.05)
    proc.send_signal(sig)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130 and "Traceback" not in err, err
    kept = rejudge(saved)  # what was judged before the signal is in the saved run, every model it names with it
    assert kept and {_key(c) for c in kept} == {_key(c) for c in _cells(stream)} < set(whole)
    assert all((saved / "models" / f"{sha}.onnx").is_file() for sha in _models(saved))

    (tmp_path / "block").unlink()
    resumed = cli(*_argv(tmp_path, "--stream", str(stream), "--resume", "--save-run", str(saved)), cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert {_key(c): c.verdict for c in rejudge(saved)} == whole  # the two saved runs judged as one
    assert sorted(_key(c) for c in _cells(stream)) == sorted(whole)  # no cell judged twice


def _models(folder: Path) -> set[str]:
    out = set()
    for line in (folder / LINES).read_text(encoding="utf-8").splitlines():
        for r in json.loads(line).get("runs", []) if line.strip() else []:
            out |= {m for m in (r.get("model"), (r.get("outcome") or {}).get("model")) if m}
    return out
