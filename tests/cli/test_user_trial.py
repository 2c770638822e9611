"""Problems a first-time user hit, pinned down: reproduce commands reproduce, bad output paths
and odd flags are one-line errors, misbehaving commands are findings with nothing left running.

The printed reproduce commands run in a shell, as a user would, and the hanging command under the console
script (its children must not outlive passcheck's process); the rest call the CLI's entry in this process
(:mod:`tests._inproc`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import onnx
import pytest

from tests._inproc import cli

DATA = Path(onnx.__file__).parent / "backend/test/data"


def _console_script(*args, cwd=None, timeout=240):
    return subprocess.run(
        [sys.executable, "-m", "passcheck", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=timeout
    )


def _one_line_error(p, needle):
    assert p.returncode == 2, (p.stdout[-2000:], p.stderr[-2000:])
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in p.stderr, p.stderr


def _shell(command: str, cwd=None):
    """Run a printed reproduce command as a user would, with this venv's console scripts on PATH."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(command, shell=True, capture_output=True, text=True, cwd=cwd, env=env, timeout=240)


def _repro_lines(stdout: str) -> list[str]:
    return [line.split("reproduce: ", 1)[1] for line in stdout.splitlines() if "reproduce: " in line]


def test_input_findings_reproduce_with_pass_input():
    model = DATA / "simple/test_expand_shape_model1/model.onnx"
    p = cli("check", model, "--pass", "ort:basic", "--synthesize-feeds", "-q")
    repro = [r for r in _repro_lines(p.stdout) if r.endswith("--pass input")]
    assert p.returncode == 1 and repro, p.stdout
    again = _shell(repro[0])
    assert again.returncode == 1 and "runtime: [rejected]" in again.stdout and "--feeds" in again.stdout


def test_real_feeds_remove_the_synthesized_feed_finding():
    folder = DATA / "simple/test_expand_shape_model1"
    p = cli("check", folder / "model.onnx", "--feeds", folder, "--pass", "ort:basic")
    assert p.returncode == 0, p.stdout[-2000:]


def test_repro_keeps_cases_from(tmp_path):
    mod = tmp_path / "dir with späce" / "my cases.py"
    mod.parent.mkdir()
    mod.write_text(
        textwrap.dedent("""
        from passcheck.cases import Case, Form, register
        from passcheck.cases.builders import FLOAT, model, node, vi

        def build(op):
            return lambda: model([node(op, ["x"], ["y"])], [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])],
                                 opset=13)

        register(Case(id="mine/relu",
                      forms={"common": Form(build("Relu")), "wrong": Form(build("Sigmoid"), "not the same")},
                      doc="Relu vs Sigmoid: deliberately different (a broken case).", opset=13,
                      bindings=({"N": 1}, {"N": 2})))
    """)
    )
    p = cli("run", "--cases-from", mod, "--case", "mine/*", "--pass", "ort:basic", cwd=tmp_path)
    repro = _repro_lines(p.stdout)
    assert p.returncode == 1 and repro and all("--cases-from" in r for r in repro), p.stdout
    again = _shell(repro[0], cwd=tmp_path)
    assert again.returncode == 1, again.stderr


@pytest.mark.parametrize("flag", ["--json", "--markdown", "--junit", "--write-baseline"])
def test_output_path_that_is_a_folder_is_one_line(tmp_path, flag):
    _one_line_error(
        cli("run", "--case", "optional-input/conv-relu", "--pass", "ort:basic", flag, tmp_path), str(tmp_path)
    )


def test_output_path_in_a_missing_folder_is_one_line(tmp_path):
    _one_line_error(
        cli("run", "--case", "optional-input/conv-relu", "--pass", "ort:basic", "--junit", tmp_path / "no/such/x.xml"),
        "no/such",
    )


@pytest.mark.parametrize("value", ["nan", "inf", "1e9999", "-1"])
def test_timeout_must_be_finite_and_positive(value):
    _one_line_error(cli("run", "--timeout", value, "--case", "optional-input/conv-relu"), "--timeout")


def test_binary_baseline_and_report_are_one_line(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_bytes(os.urandom(256) + b"\xff\xfe")
    _one_line_error(
        cli("run", "--case", "optional-input/conv-relu", "--pass", "ort:basic", "--baseline", junk), "baseline"
    )
    _one_line_error(cli("report", junk), "not a passcheck report")
    _one_line_error(cli("list", "--cases-from", DATA / "light/light_squeezenet.onnx"), "must be a Python file")


def test_report_out_writes_the_terminal_format(tmp_path):
    j = tmp_path / "r.json"
    cli("run", "--case", "optional-input/conv-bn", "--pass", "ort:basic", "--json", j)
    out = tmp_path / "r.txt"
    p = cli("report", j, "--out", out)
    assert p.returncode == 0 and "parity" in out.read_text() and "parity" not in p.stdout


@pytest.mark.parametrize(
    "script,needle",
    [
        ("open(sys.argv[2], 'wb').close()", "not a model"),
        ("open(sys.argv[2], 'wb').write(b'\\x08\\x01\\x12\\x03abc')", "not a model"),
        ("pass", "wrote no {out} file"),
    ],
)
def test_command_writing_no_model_is_a_rejected_finding(tmp_path, script, needle):
    tool = tmp_path / "tool.py"
    tool.write_text(f"import sys\n{script}\n")
    p = cli(
        "run",
        "--case",
        "optional-input/conv-relu",
        "--pass",
        f"cmd:{sys.executable} {tool} {{in}} {{out}}",
        "--json",
        tmp_path / "r.json",
    )
    assert p.returncode == 1 and "Traceback" not in p.stderr
    cells = [c for c in json.loads((tmp_path / "r.json").read_text())["results"] if c["pass_id"].startswith("cmd:")]
    assert {c["status"] for c in cells} == {"crashed"}
    assert all(needle in c["error"] for c in cells), cells[0]["error"]
    assert {f["kind"] for c in cells for f in c["findings"]} == {"rejected"}


@pytest.mark.parametrize("isolation", [[], ["--no-isolation"]])
def test_hanging_command_is_killed_with_its_children(tmp_path, isolation):
    marker = f"passcheck-hang-{os.getpid()}-{len(isolation)}"
    tool = tmp_path / "hang.sh"
    tool.write_text(f"#!/bin/sh\nsleep 600 & exec -a {marker} sleep 600\n")
    tool.chmod(0o755)
    p = _console_script(
        "run",
        "--case",
        "optional-input/conv-relu",
        "--pass",
        f"cmd:{tool} {{in}} {{out}}",
        "--timeout",
        "2",
        "--json",
        tmp_path / "r.json",
        *isolation,
    )
    assert p.returncode == 1, p.stderr
    cells = [c for c in json.loads((tmp_path / "r.json").read_text())["results"] if c["pass_id"].startswith("cmd:")]
    assert {c["status"] for c in cells} == {"timeout"}
    import time

    # a killed child is gone once its parent has reaped it; poll to a deadline, never a fixed grace
    deadline = time.monotonic() + 30
    while True:
        left = subprocess.run(["pgrep", "-f", str(tool)], capture_output=True, text=True).stdout.split()
        left += subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not left, f"processes left running after 30 s: {left}"


def _relu_file(path, elem_type, shape):
    x = onnx.helper.make_tensor_value_info("x", elem_type, shape)
    y = onnx.helper.make_tensor_value_info("y", elem_type, shape)
    m = onnx.helper.make_model(
        onnx.helper.make_graph([onnx.helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
        opset_imports=[onnx.helper.make_opsetid("", 18)],
    )
    m.ir_version = 8
    onnx.save(m, str(path))
    return path


def test_compare_of_models_with_other_input_types_is_one_line(tmp_path):
    a = _relu_file(tmp_path / "a.onnx", onnx.TensorProto.FLOAT, ["N", 3])
    b = _relu_file(tmp_path / "b.onnx", onnx.TensorProto.FLOAT16, [2, 5, 1])
    _one_line_error(cli("compare", a, b, "--pass", "ort:basic"), "b.onnx: input 'x' is FLOAT16 [2, 5, 1] where")


def test_compare_feeds_what_both_models_declare_or_refuses_in_one_line(tmp_path):
    a = _relu_file(tmp_path / "a.onnx", onnx.TensorProto.FLOAT, ["N", 3])
    b = _relu_file(tmp_path / "b.onnx", onnx.TensorProto.FLOAT, [4, 3])
    p = cli("compare", a, b, "--pass", "ort:basic", "--progress", "none")
    assert p.returncode == 0 and "annotation" not in p.stdout.split("annotations:")[0], p.stdout  # N fed as 4
    c = _relu_file(tmp_path / "c.onnx", onnx.TensorProto.FLOAT, [2, 3])
    _one_line_error(cli("compare", c, b, "--pass", "ort:basic"), "b.onnx: input 'x' axis 0 is 4 where")


def test_usage_errors_name_the_program_once(tmp_path):
    a = _relu_file(tmp_path / "a.onnx", onnx.TensorProto.FLOAT, ["N", 3])
    p = cli("check", a, "--bind", "N=x")
    _one_line_error(p, "passcheck: error: check: argument --bind")
    assert p.stderr.count("passcheck") == 2  # the prefix and the --help hint


def test_annotations_of_a_model_that_never_runs_are_counted_unchecked(tmp_path):
    # Reshape to 7 elements: valid for the checker, fails on every feed onnxruntime gets ([2,3], [3,3])
    x = onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 3])
    y = onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [7])
    shape = onnx.helper.make_tensor("s", onnx.TensorProto.INT64, [1], [7])
    m = onnx.helper.make_model(
        onnx.helper.make_graph(
            [onnx.helper.make_node("Reshape", ["x", "s"], ["y"])], "g", [x], [y], initializer=[shape]
        ),
        opset_imports=[onnx.helper.make_opsetid("", 18)],
    )
    m.ir_version = 8
    onnx.save(m, str(tmp_path / "r.onnx"))
    p = cli("check", tmp_path / "r.onnx", "--pass", "ort:basic", "--progress", "none")
    assert p.returncode == 1, p.stderr
    # two cells (the form, its ort:basic output), two annotations each, none checked, each with why
    assert "annotations: 4 annotated, 0 checked, 0 unobserved, 4 unchecked (4: the model did not run)" in p.stdout, (
        p.stdout
    )
