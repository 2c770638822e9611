"""Output paths: '-' is standard output, and every path is checked before any work is done.

``--json -`` goes through the console script (standard output of a real process); the rest calls the CLI's
entry in this process (:mod:`tests._inproc`, which reads file descriptors 1 and 2 too)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import onnx
import pytest

from tests._inproc import cli

LIGHT = Path(onnx.__file__).parent / "backend/test/data/light"
CASE = ["--case", "optional-input/conv-relu", "--pass", "ort:basic"]


def _console_script(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "passcheck", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def _one_line_error(p, needle):
    assert p.returncode == 2, (p.stdout[-2000:], p.stderr[-2000:])
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in p.stderr, p.stderr


def test_json_dash_is_stdout_and_the_human_report_goes_to_stderr(tmp_path):
    p = _console_script("run", *CASE, "--json", "-", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["summary"]["cells"] > 0 and "cells:" in p.stderr
    assert not (tmp_path / "-").exists()


def test_junit_dash_is_stdout(tmp_path):
    p = cli("run", *CASE, "--junit", "-", cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.lstrip().startswith("<?xml") and "cells:" in p.stderr, p.stderr


def test_two_outputs_on_stdout_are_refused():
    _one_line_error(cli("run", *CASE, "--json", "-", "--junit", "-"), "only one output")


def test_annotations_json_dash(tmp_path):
    p = cli("annotations", LIGHT / "light_squeezenet.onnx", "--json", "-", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["runs"] and "every annotation was checked and holds" in p.stderr


@pytest.mark.parametrize("flag", ["--json", "--junit", "--markdown", "--write-baseline", "--stream"])
def test_bad_output_path_fails_before_any_pass_runs(tmp_path, flag):
    """A tool that leaves a mark when it runs: an unwritable output must stop passcheck before it."""
    tool = tmp_path / "tool.py"
    mark = tmp_path / "ran"
    tool.write_text(
        textwrap.dedent(f"""
        import shutil, sys
        open({str(mark)!r}, "w").close()
        shutil.copy(sys.argv[1], sys.argv[2])
    """)
    )
    cmd = f"cmd:{sys.executable} {tool} {{in}} {{out}}"
    _one_line_error(
        cli("run", "--case", "optional-input/conv-relu", "--pass", cmd, flag, tmp_path / "missing/r.out"),
        "does not exist",
    )
    _one_line_error(cli("check", LIGHT / "light_squeezenet.onnx", "--pass", cmd, flag, tmp_path), "is a directory")
    assert not mark.exists()


def test_check_mutations_validates_outputs_before_building_mutants(tmp_path):
    p = cli("check", LIGHT / "light_squeezenet.onnx", "--mutations", "--json", tmp_path / "no/such/r.json")
    _one_line_error(p, "does not exist")
    assert "mutant" not in p.stdout


def test_report_out_checked_and_exit_code(tmp_path):
    j = tmp_path / "r.json"
    assert cli("run", "--case", "optional-input/conv-bn", "--pass", "ort:basic", "--json", j).returncode == 1
    _one_line_error(cli("report", j, "--format", "markdown", "--out", tmp_path / "no/such.md"), "does not exist")
    assert cli("report", j, "--format", "findings").returncode == 0
    assert cli("report", j, "--fail-on-findings").returncode == 1
