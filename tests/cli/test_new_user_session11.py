"""What a new user broke (session 11): a reader that stops reading, an output that is a device or a
pipe, a folder that refuses files whatever its permission bits say."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.errors import PasscheckError

PASSCHECK = str(Path(sys.executable).with_name("passcheck"))
pytest_plugins = ["pytester"]


def _relu(path: Path, out_dims) -> Path:
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_dims)],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]), str(path))
    return path


@pytest.mark.parametrize(("out_dims", "code"), [([2, 3], 0), ([2, 4], 1)])  # holds; an annotation that does not
def test_a_reader_that_stops_reading_loses_no_file_and_no_verdict(tmp_path, out_dims, code):
    """``passcheck check … --json r.json | head -1``: the JSON is written and the exit code is the run's
    (rich exited 1 on the first write to the closed pipe, before any file was written)."""
    model = _relu(tmp_path / "m.onnx", out_dims)
    p = subprocess.Popen(
        [PASSCHECK, "check", str(model), "--pass", "ort:disabled", "--json", "r.json", "--junit", "r.xml", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    p.stdout.close()  # the reader is gone before the first line
    err = p.stderr.read().decode()
    assert p.wait(timeout=600) == code, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["summary"]["cells"] == 2 and (tmp_path / "r.xml").read_text().startswith("<?xml")


def test_a_report_written_to_a_fifo_keeps_the_fifo(tmp_path):
    """``--json /dev/stdout``, ``/dev/null``, a FIFO: written in place; a rename replaced the node by a
    regular file (as root, /dev/null itself)."""
    from passcheck.report import atomic_write

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so the writer's open does not block
    try:
        atomic_write(fifo, '{"a": 1}\n')
        assert stat.S_ISFIFO(os.stat(fifo).st_mode)
        assert os.read(reader, 100) == b'{"a": 1}\n'
    finally:
        os.close(reader)


def test_an_output_folder_that_refuses_files_is_refused_before_the_run(monkeypatch):
    """Permission bits say yes to root on a read-only file system (``--json /sys/x.json`` as root: the run
    ended, then the write failed and the report was lost); the check makes a file there instead."""
    import argparse

    from passcheck.cli import _common

    if not Path("/proc").is_dir():
        pytest.skip("needs /proc, a folder no one can create a file in")
    monkeypatch.setattr(os, "access", lambda *a, **k: True)  # what root is told
    with pytest.raises(PasscheckError, match="not writable"):
        _common.check_outputs(argparse.Namespace(json="/proc/passcheck-report.json"))
    with pytest.raises(PasscheckError, match="not writable"):
        _common.check_out_folder("--out", "/proc/passcheck-out/sub")


@pytest.mark.parametrize(
    ("script", "error", "message"),
    [
        ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", RuntimeError, "killed by signal 11 (SIGSEGV) ("),
        ("import sys; sys.exit(3)", Exception, "exit 3 (nothing on stdout or stderr)"),
        ("pass", RuntimeError, "wrote no {out} file (nothing on stdout or stderr)"),
    ],
)
def test_a_silent_cmd_pass_failure_says_it_was_silent(tmp_path, script, error, message):
    """A command that dies without a word ended its message in a dangling ``killed by signal 11:``."""
    from passcheck.passes.command import CommandAdapter

    tool = tmp_path / "tool.py"
    tool.write_text(script)
    model = onnx.load(str(_relu(tmp_path / "m.onnx", [2, 3])))
    with pytest.raises(error) as info:
        CommandAdapter(f"{sys.executable} {tool} {{in}} {{out}}").apply(model, tmp_path)
    assert message in str(info.value), str(info.value)
    assert not str(info.value).rstrip().endswith(":")


def test_a_marker_naming_an_unknown_case_is_one_message_without_a_chained_one(pytester):
    """The collection error printed the registry's error, "During handling of the above exception,
    another exception occurred:", then the marker's message."""
    pytester.makepyfile(
        test_user="""
        import pytest

        @pytest.mark.passcheck(cases=["nosuch/*"], passes=["ort:basic"])
        def test_mine(passcheck_case):
            passcheck_case.assert_ok()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    text = "\n".join(result.outlines)
    assert result.ret == pytest.ExitCode.INTERRUPTED and "@pytest.mark.passcheck: unknown case id 'nosuch/*'" in text
    assert "During handling" not in text, text
