"""A usage error is refused before any work and before any progress line (in this process); a long cell's
progress line names what runs now (case, form, pass, step), through the console script."""

import os
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from tests._inproc import cli

PASSCHECK = str(Path(sys.executable).with_name("passcheck"))


@pytest.fixture(scope="module")
def relu(tmp_path_factory):
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    path = tmp_path_factory.mktemp("relu") / "relu.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]), str(path))
    return path


@pytest.mark.parametrize("command", [["mutate", "--out", "out"], ["check", "--mutations"]])
def test_an_unknown_form_is_one_line_before_any_progress(relu, tmp_path, command):
    env = {"PASSCHECK_PROGRESS_EVERY": "0.01"}  # a heartbeat would print within any work at all
    p = cli(command[0], relu, *command[1:], "--form", "bogus", "--progress", "lines", cwd=tmp_path, env=env)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [p.stderr.strip()], p.stderr[:2000]  # one line, nothing before it
    assert p.stderr.startswith("passcheck: error: unknown form id 'bogus'")
    assert not (tmp_path / "out").exists()


def test_a_long_cell_says_which_form_pass_and_step_runs(relu, tmp_path):
    release = tmp_path / "release"
    (tmp_path / "held.py").write_text(
        "import os, shutil, sys, time\n"
        "end = time.monotonic() + 120  # a deadline: the test releases the pass once it saw the line\n"
        f"while not os.path.exists({str(release)!r}) and time.monotonic() < end:\n"
        "    time.sleep(0.05)\nshutil.copy(sys.argv[1], sys.argv[2])\n"
    )
    env = {**os.environ, "PASSCHECK_PROGRESS_EVERY": "0.2"}
    pass_id = f"cmd:{sys.executable} {tmp_path / 'held.py'} {{in}} {{out}}"
    proc = subprocess.Popen(
        [PASSCHECK, "check", str(relu), "--pass", pass_id, "--progress", "lines"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    seen = []
    try:
        for line in proc.stderr:  # the pass holds until the progress line naming it is seen (an event, no sleep)
            seen.append(line)
            if "now model/relu: common cmd:" in line and "running the pass" in line:
                break
    finally:
        release.touch()
        proc.communicate(timeout=300)
    assert any("running the pass (step" in s for s in seen), "".join(seen)[-2000:]
