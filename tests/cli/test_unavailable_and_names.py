"""A missing tool is not a finding (issue 11.5), and ``compare`` names its forms by file stem (11.8)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

import passcheck
from passcheck.cases.builders import FLOAT, model, node, tensor, vi
from passcheck.cli import main
from passcheck.passes import get_pass

MISSING = "cmd:passcheck-no-such-tool-4711 {in} {out}"


def _relu() -> onnx.ModelProto:
    return model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])], opset=18)


def _max() -> onnx.ModelProto:
    return model(
        [node("Max", ["x", "zero"], ["y"])],
        [vi("x", FLOAT, ["N", 3])],
        [vi("y", FLOAT, ["N", 3])],
        opset=18,
        initializers=[tensor("zero", np.zeros((), np.float32))],
    )


@pytest.fixture
def pair(tmp_path):
    onnx.save(_relu(), str(tmp_path / "relu.onnx"))
    onnx.save(_max(), str(tmp_path / "max.onnx"))
    return tmp_path / "relu.onnx", tmp_path / "max.onnx"


@pytest.mark.parametrize("door", ["run", "check", "compare"])
def test_missing_command_is_one_line_exit_2(pair, door, capsys, tmp_path):
    a, b = map(str, pair)
    argv = {"run": ["run", "--case", "optional-input/conv-relu"], "check": ["check", a], "compare": ["compare", a, b]}[
        door
    ]
    code = main([*argv, "--pass", MISSING, "--json", str(tmp_path / "r.json")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "passcheck-no-such-tool-4711" in err and "command not found" in err
    assert not (tmp_path / "r.json").exists()  # no report pretending something was checked


def test_missing_command_raises_in_the_api():
    from passcheck.errors import PassUnavailableError

    with pytest.raises(PassUnavailableError, match="passcheck-no-such-tool-4711"):
        passcheck.check_model(_relu(), [MISSING])
    with pytest.raises(PassUnavailableError):
        passcheck.run(["optional-input/conv-relu"], [MISSING])


def test_failing_command_stays_a_finding(pair, tmp_path):
    """A command that exists but fails on the model is the tool's verdict: a finding, exit 1."""
    code = main(["check", str(pair[0]), "--pass", "cmd:false {in} {out}", "-q", "--json", str(tmp_path / "r.json")])
    cells = json.loads((tmp_path / "r.json").read_text())["results"]
    assert code == 1 and [c["status"] for c in cells if c["pass_id"] != "input"] == ["declined"]


def test_command_resolves_in_the_interpreters_scripts_folder_first(tmp_path, monkeypatch):
    """A venv's tool works without activating the venv: found next to sys.executable, not on PATH."""
    bindir = tmp_path / "venv" / "bin"
    bindir.mkdir(parents=True)
    tool = bindir / "copy-model"
    tool.write_text(f'#!/bin/sh\nexec {shutil.which("cp")} "$1" "$2"\n')
    tool.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(bindir / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    adapter = get_pass("cmd:copy-model {in} {out}")
    assert adapter.unavailable_reason() is None
    work = tmp_path / "work"
    work.mkdir()
    assert adapter.run(_relu(), work).status == "unchanged"
    monkeypatch.setattr(sys, "executable", str(tmp_path / "elsewhere" / "python"))
    assert "command not found: copy-model" in get_pass("cmd:copy-model {in} {out}").unavailable_reason()


def test_venv_tool_runs_through_the_cli_without_activation(pair, tmp_path):
    """End to end: passcheck started by path with a PATH that lacks the venv's bin folder."""
    tool = Path(sys.executable).parent / "passcheck"  # a console script of this environment
    assert tool.is_file()
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "passcheck",
            "check",
            str(pair[0]),
            "--pass",
            "cmd:passcheck --version {in} {out}",
            "-q",
            "--json",
            str(tmp_path / "r.json"),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    cell = [c for c in json.loads((tmp_path / "r.json").read_text())["results"] if c["pass_id"] != "input"][0]
    assert cell["status"] == "crashed" and "wrote no" in cell["error"], (
        cell
    )  # it ran (printed its version), wrote no model


def test_compare_names_forms_by_file_stem(pair, tmp_path):
    a, b = pair
    code = main(["compare", str(a), str(b), "--pass", "onnx:infer-shapes", "-q", "--json", str(tmp_path / "r.json")])
    cells = json.loads((tmp_path / "r.json").read_text())["results"]
    assert code == 0 and sorted({c["form"] for c in cells}) == ["max", "relu"]


def test_compare_form_names_are_distinct_and_never_input():
    from passcheck.modelio import form_names

    assert form_names("x/a.onnx", "y/a.onnx") == ("a", "a-2")
    assert form_names("input.onnx", "b.onnx") == ("input-2", "b")
    assert form_names("t1/model.onnx", "t2/model.onnx") == ("t1", "t2")  # backend-test layout: the folder names it
    assert form_names("we ird|name.onnx", "b.onnx") == ("we-ird-name", "b")
