"""Progress on stderr for every long command: plain lines in pipes, a bar on request, silence with -q.

A line per cell is read from the console script's stderr; the other commands run through the CLI's entry in
this process (:mod:`tests._inproc`)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

from tests._inproc import cli

SQUEEZENET = Path(onnx.__file__).parent / "backend/test/data/light/light_squeezenet.onnx"
RUN = ["run", "--case", "optional-input/conv-bn", "--pass", "ort:basic"]


def _console_script(*args, every="0"):
    env = {**os.environ, "PASSCHECK_PROGRESS_EVERY": every}
    return subprocess.run([sys.executable, "-m", "passcheck", *map(str, args)], capture_output=True, text=True, env=env)


def _cli(*args, every="0"):
    return cli(*args, env={"PASSCHECK_PROGRESS_EVERY": every})


def _counted(stderr: str, command: str, unit: str) -> list[int]:
    return [int(m.group(1)) for m in re.finditer(rf"^passcheck {command}: (\d+)/\d+ {unit}\b", stderr, re.M)]


def test_run_prints_a_line_per_cell_with_a_zero_interval():
    p = _console_script(*RUN)
    assert p.returncode == 1
    assert "passcheck run: 4 cells planned" in p.stderr
    assert _counted(p.stderr, "run", "cells") == [1, 2, 3, 4]
    assert "cells planned" not in p.stdout  # stdout keeps the report only


def test_default_interval_still_reports_completion():
    p = _cli(*RUN, every="3600")
    assert _counted(p.stderr, "run", "cells") == [1, 4]  # the plan with the first cell, then completion


@pytest.mark.parametrize("flag", [["-q"], ["--progress", "none"]])
def test_quiet_and_none_silence_progress(flag):
    p = _cli(*RUN, *flag)
    assert p.returncode == 1 and p.stderr == ""


def test_bar_mode_renders_counts():
    p = _cli(*RUN, "--progress", "bar")
    assert p.returncode == 1 and "4/4" in p.stderr


def test_check_mutations_counts_mutants_then_cells():
    p = _cli(
        "check",
        SQUEEZENET,
        "--mutations",
        "--form",
        "explicit-defaults",
        "--form",
        "reverse-topo-order",
        "--max-sites",
        "0",
        "--pass",
        "ort:basic",
    )
    assert p.returncode in (0, 1), p.stderr
    err = p.stderr
    assert _counted(err, "check", "mutants") == [1, 2]
    assert _counted(err, "check", "cells") == [1, 2, 3, 4, 5, 6]
    assert err.index("2/2 mutants") < err.index("6 cells planned")


def test_annotations_mutate_and_compare_report_progress(tmp_path):
    assert _counted(_cli("annotations", SQUEEZENET).stderr, "annotations", "runs") == [1, 2]
    assert _counted(
        _cli("mutate", SQUEEZENET, "--out", tmp_path, "--form", "explicit-defaults").stderr, "mutate", "mutants"
    ) == [1]
    assert _counted(_cli("compare", SQUEEZENET, SQUEEZENET, "--pass", "ort:disabled").stderr, "compare", "cells") == [
        1,
        2,
        3,
        4,
    ]


def test_a_long_step_gets_periodic_lines(capsys):
    """Plain mode while no step finishes (a large model's first runs): a line every interval."""
    import time

    from passcheck.progress import Progress

    with Progress(3, bar="lines", label="passcheck t", every=0.05) as prog:
        prog.advance("", "first")
        seen, deadline = "", time.monotonic() + 60
        while seen.count("running for") < 2 and time.monotonic() < deadline:
            time.sleep(0.02)  # polling the captured stderr, not waiting for a fixed time
            seen += capsys.readouterr().err
    assert "passcheck t: 3 cells planned" in seen and "1/3 cells (first)" in seen
    assert seen.count("passcheck t: 1/3 cells, running for") >= 2
    assert capsys.readouterr().err.count("running for") <= 1  # stops with the stage (one may race the close)


def test_uncounted_stage_heartbeat_says_how_many_steps_ended(capsys):
    """A stage without a total (hunt's items under a time budget): the heartbeat of a long step
    still gives the count; steps that keep ending print counted lines, not heartbeats."""
    import time

    from passcheck.progress import Progress

    # every=0.5: the heartbeat needs a half-second gap between two steps, which the tight loop below
    # does not leave even on a loaded machine (0.05 did: a scheduler stall read as a heartbeat)
    with Progress(None, unit="items", bar="lines", label="passcheck t", every=0.5) as prog:
        prog.advance("", "first")
        seen, deadline = "", time.monotonic() + 60
        while "running for" not in seen and time.monotonic() < deadline:
            time.sleep(0.02)  # polling the captured stderr
            seen += capsys.readouterr().err
        assert "passcheck t: 1 items, running for" in seen
        counted, deadline = "", time.monotonic() + 60
        while counted.count("items (step)") < 3 and time.monotonic() < deadline:
            prog.advance("", "step")  # steps end far more often than the interval
            counted += capsys.readouterr().err
    assert "running for" not in counted.split("items (step)", 1)[1]


@pytest.mark.parametrize(("flags", "want"), [((), "lines"), (("-q",), "none"), (("--progress", "none"), "none")])
def test_progress_no_subcommand_counts_follows_the_command_s_flags(monkeypatch, flags, want):
    """A gate judged on the library's first load (``passcheck.cases.schema_gate.progress``) is constructed by no
    subcommand: it takes the mode the command's ``--progress`` / ``-q`` ask for (``lines`` in a pipe by default)."""
    from passcheck import cli as cli_pkg
    from passcheck.cases import schema_gate

    seen = []

    def handler(args):
        with schema_gate.progress("contrib", 3) as bar:
            seen.append(bar.mode)
        return 0

    parser = cli_pkg.build_parser()
    monkeypatch.setattr(cli_pkg, "build_parser", lambda: parser)
    for action in parser._subparsers._group_actions[0].choices.values():
        action.set_defaults(handler=handler)
    assert cli_pkg.main([*RUN, *flags]) == 0
    assert seen == [want]
