"""What a new user broke (session 21): a model or a pass output whose names are not UTF-8 ended passcheck
with a traceback (exit 3) instead of a one-line refusal (exit 2) or a finding on the pass."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

import passcheck
import passcheck.testing
from passcheck.errors import ModelLoadError
from tests._inproc import cli

pytest_plugins = ["pytester"]


def _relu(name: str = "x") -> onnx.ModelProto:
    return helper.make_model(
        helper.make_graph(
            [helper.make_node("Relu", [name], ["y"])],
            "g",
            [helper.make_tensor_value_info(name, TensorProto.FLOAT, ["N", 3])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )


def _not_utf8(model: onnx.ModelProto, name: str) -> bytes:
    """``model``'s bytes with every string ``name`` (two ASCII letters) replaced by two bytes that are not UTF-8
    (same length, so protobuf's length prefixes still hold): what protobuf then hands Python is ``bytes``."""
    assert len(name) == 2
    data = model.SerializeToString().replace(b"\x02" + name.encode(), b"\x02\xff\xfe")
    assert isinstance(onnx.ModelProto.FromString(data).graph.input[0].name, bytes)
    return data


@pytest.mark.parametrize(
    "command",
    [["check"], ["check", "--mutations"], ["annotations"], ["show"], ["mutate", "--out", "{tmp}/m"], ["compare"]],
)
def test_a_model_whose_names_are_not_utf8_is_refused_in_one_line(tmp_path, command):
    path = tmp_path / "bad.onnx"
    path.write_bytes(_not_utf8(_relu("xx"), "xx"))
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    quiet = [] if args[0] == "show" else ["-q"]
    r = cli(args[0], path, *([path] if args[0] == "compare" else []), *args[1:], *quiet)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "model.graph.node[0].input[0] is not UTF-8" in lines[0], r.stderr


def test_the_api_refuses_a_model_proto_whose_names_are_not_utf8():
    with pytest.raises(ModelLoadError, match="is not UTF-8"):
        passcheck.check_model(onnx.ModelProto.FromString(_not_utf8(_relu("xx"), "xx")), ["ort:basic"])


def test_a_command_pass_writing_names_that_are_not_utf8_is_a_finding_not_a_crash(tmp_path):
    script = tmp_path / "rename.py"
    script.write_text(
        textwrap.dedent("""
        import sys
        data = open(sys.argv[1], "rb").read().replace(b"\\x02xx", b"\\x02\\xff\\xfe")
        open(sys.argv[2], "wb").write(data)
    """)
    )
    model = tmp_path / "m.onnx"
    onnx.save(_relu("xx"), model)
    r = cli("check", model, "-q", "--pass", f"cmd:{sys.executable} {script} {{in}} {{out}}")
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    assert "[rejected]" in r.stdout and "is not UTF-8" in r.stdout, r.stdout


def test_a_python_pass_returning_names_that_are_not_utf8_is_a_finding_not_a_crash():
    def renames(m: onnx.ModelProto) -> onnx.ModelProto:
        return onnx.ModelProto.FromString(_not_utf8(m, "xx"))

    found = passcheck.testing.check_model_passes(_relu("xx"), [renames])
    assert [f.kind for f in found] == ["rejected"], found
    assert "model.graph.node[0].input[0] is not UTF-8" in found[0].message


@pytest.fixture(scope="module")
def stored_report(tmp_path_factory) -> str:
    """The text of a real ``check --json`` report of a one-Relu model (findings or not, it has cells)."""
    folder = tmp_path_factory.mktemp("report")
    onnx.save(_relu(), folder / "m.onnx")
    r = cli("check", folder / "m.onnx", "-q", "--pass", "ort:basic", "--json", folder / "r.json")
    assert r.returncode in (0, 1), r.stderr
    return (folder / "r.json").read_text()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (lambda full: full[: len(full) // 2], "a JSON document cut short"),
        (lambda full: "[]", "not a passcheck report"),
        (lambda full: '{"results": 5}', "'results' is not a list of cells"),
        (lambda full: '{"results": [{"case": "a"}]}', "results[0] is not a cell record"),
        (lambda full: '{"results": [7]}', "results[0] is not a cell record"),
        (lambda full: '{"type": "cell", "case": "a", "findings": [3]}\n', "line 1 is not a cell record"),
    ],
)
@pytest.mark.parametrize("command", ["report", "repro", "attribute"])
def test_a_report_that_is_cut_short_or_malformed_is_one_line_not_a_traceback(
    tmp_path, stored_report, text, says, command
):
    bad = tmp_path / "r.json"
    bad.write_text(text(stored_report))
    r = cli(command, bad, *(["--out", tmp_path / "o"] if command == "repro" else []))
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], r.stderr


def test_a_whole_stored_report_still_renders(tmp_path, stored_report):
    path = tmp_path / "r.json"
    path.write_text(stored_report)
    r = cli("report", path)
    assert r.returncode == 0, r.stderr
    assert "1 cells" in r.stdout or "2 cells" in r.stdout, r.stdout


def test_an_interrupted_matrix_marks_its_reports_partial(tmp_path):
    # was: Ctrl-C wrote out/report.json, report.xml and report.md from the cells that had arrived with no mark:
    # 213 of 486 cells read as a whole run, `passcheck report out/report.json --fail-on-findings` exited 0 on
    # them and the JUnit suite passed
    import signal
    import time

    from junitparser import Failure, JUnitXml

    from tests.matrix.test_worker_deaths import _matrix

    mark = tmp_path / "mark"
    proc = _matrix(
        tmp_path, "--env", "onnx-1.23", "--case", "deaths/ok", "--case", "deaths/stuck", "--pass", "planted:marked"
    )
    deadline = time.monotonic() + 300  # the worker must start and finish deaths/ok under load
    while not (mark.is_file() and mark.read_text()):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    out = tmp_path / "out"
    doc = json.loads((out / "report.json").read_text())
    # the stuck case's worker is the one interrupted: no cell of it is recorded; deaths/ok's cells are recorded `ok`
    # when they arrived before the interrupt (under load the stuck case may start first: 0 cells, no verdict)
    verdicts = doc["summary"]["verdicts"]
    assert doc.get("partial") is True and set(verdicts) <= {"ok"}, doc
    assert sum(verdicts.values()) == doc["summary"]["cells"], doc
    suite = [tc for s in JUnitXml.fromfile(str(out / "report.xml")) for tc in s]
    assert [tc.name for tc in suite if any(isinstance(r, Failure) for r in tc.result)] == ["interrupted"]
    assert "PARTIAL" in (out / "report.md").read_text()
    r = cli("report", out / "report.json", "--fail-on-findings")
    assert r.returncode == 1 and "interrupted" in r.stderr + r.stdout, r.stdout + r.stderr
    merged = cli("merge", out, "--allow-partial", "--out", tmp_path / "merged")
    assert json.loads((tmp_path / "merged" / "report.json").read_text()).get("partial") is True, merged.stderr


def test_the_plugin_s_reproduce_line_of_a_time_limit_finding_carries_the_limit(pytester):
    # was: `--passcheck-timeout 5` gave a timeout finding whose reproduce line, `assert_pass_ok(hang, CASE)`, ran
    # under the default 300 s limit: another run than the one that failed (a pass taking 100 s passes there)
    pytester.makepyfile(
        test_user="""
        import threading

        import pytest


        def hangs(model):
            threading.Event().wait()


        def fails(model):
            raise ValueError("no")


        @pytest.mark.passcheck(cases=["optional-input/conv-relu:common"], passes=[hangs, fails])
        def test_mine(passcheck_case):
            passcheck_case.assert_ok()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "--passcheck-timeout", "3")
    # with CI set (as on CI machines) pytest's short summary repeats each failure message in full: each line once
    repro = list(dict.fromkeys(line.strip() for line in result.outlines if line.strip().startswith("reproduce:")))
    assert len(repro) == 2, "\n".join(result.outlines)
    assert repro[0].endswith("assert_pass_ok(hangs, 'optional-input/conv-relu', timeout=3)\"")
    assert repro[1].endswith("assert_pass_ok(fails, 'optional-input/conv-relu')\""), repro  # not about the limit


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    """A ``check --save-run`` folder of a one-Relu model under ``ort:basic``: three lines (the run's start,
    ``input``, the pass)."""
    folder = tmp_path_factory.mktemp("saved")
    onnx.save(_relu(), folder / "m.onnx")
    r = cli("check", folder / "m.onnx", "-q", "--pass", "ort:basic", "--save-run", folder / "run")
    assert r.returncode == 0, r.stdout + r.stderr
    text = (folder / "run" / "runs.jsonl").read_text()
    assert text.count("\n") == 3
    return folder / "run"


def _copy(saved: Path, to: Path, text: str) -> Path:
    import shutil

    shutil.copytree(saved, to)
    (to / "runs.jsonl").write_text(text)
    return to


def test_a_saved_run_whose_last_line_was_torn_by_a_kill_is_rejudged_from_the_lines_before_it(tmp_path, saved_run):
    # was: the torn last line refused the whole folder, losing every group saved before the kill
    whole = (saved_run / "runs.jsonl").read_text()
    first = whole.index("\n", whole.index("\n") + 1) + 1  # after the run-start line and the first group
    torn = _copy(saved_run, tmp_path / "torn", whole[: first + 200])
    r = cli("report", "--rejudge", torn)
    assert r.returncode == 0 and "1 cells" in r.stdout, r.stdout + r.stderr
    again = cli("check", saved_run.parent / "m.onnx", "-q", "--pass", "ort:basic", "--save-run", torn)
    assert again.returncode == 0, again.stderr
    r = cli("report", "--rejudge", torn)  # the next run's records are whole, after the torn line: the latest run
    assert r.returncode == 0 and "2 cells" in r.stdout and "holds 2 saved runs" in r.stderr, r.stdout + r.stderr


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (lambda whole: whole[: whole.index("\n") + 200], "no whole saved run: line 2 was torn"),
        (lambda whole: whole + "[1, 2]\n", "line 4 is not a saved run: not a JSON object"),
    ],
)
def test_a_saved_run_with_nothing_whole_or_a_line_that_is_no_object_is_one_line(tmp_path, saved_run, text, says):
    bad = _copy(saved_run, tmp_path / "bad", text((saved_run / "runs.jsonl").read_text()))
    r = cli("report", "--rejudge", bad)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], r.stderr


@pytest.mark.parametrize("keep_data", [True, False])
def test_a_command_pass_writing_its_output_with_external_data_is_judged_on_that_data(tmp_path, keep_data):
    # was: the output's external data file, written beside {out} as the IR spec allows, was never read: the
    # checker rejected the output ("should be stored in out.data, but it is not regular file") and it failed to
    # run, an invalid-model finding on a pass that did nothing wrong
    import numpy as np
    from onnx import numpy_helper

    model = helper.make_model(
        helper.make_graph(
            [helper.make_node("Add", ["x", "w"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 64])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 64])],
            [numpy_helper.from_array(np.arange(64, dtype=np.float32).reshape(1, 64), "w")],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    onnx.save(model, tmp_path / "m.onnx")
    script = tmp_path / "external.py"
    script.write_text(
        "import os, sys, onnx\n"
        "onnx.save(onnx.load(sys.argv[1]), sys.argv[2], save_as_external_data=True, location='out.data',"
        " size_threshold=0)\n"
        + ("" if keep_data else "os.remove(os.path.join(os.path.dirname(sys.argv[2]), 'out.data'))\n")
    )
    r = cli("check", tmp_path / "m.onnx", "-q", "--pass", f"cmd:{sys.executable} {script} {{in}} {{out}}")
    if keep_data:
        assert r.returncode == 0, r.stdout + r.stderr
        assert "0 unexpected findings" in r.stdout, r.stdout
    else:  # the command's output names a file it did not write: its fault, a finding
        assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
        assert "[rejected]" in r.stdout and "external data file 'out.data' is missing" in r.stdout, r.stdout
