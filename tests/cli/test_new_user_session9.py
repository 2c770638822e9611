"""What a new user ran in CI and got wrong (session 9): each command through the console script,
as the README spells it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import _case_gates
from tests.cli.test_usage_before_work import relu  # noqa: F401 - the one-Relu model fixture

PASSCHECK = str(Path(sys.executable).with_name("passcheck"))


def _run(args, tmp_path, **env):
    """``passcheck *args`` in ``tmp_path``, its own cache there seeded with the library's gate verdicts
    (tests/_case_gates.py: each process would judge the gated bases again on an empty cache)."""
    cache = _case_gates.seeded(tmp_path / "cache")
    return subprocess.run(
        [PASSCHECK, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PASSCHECK_CACHE": str(cache), **env},
        timeout=600,
    )


def test_coverage_refuses_an_unknown_pass_id_before_any_work(tmp_path):
    # every other command refuses an unknown pass id in one line, exit 2; coverage printed an
    # empty map and exited 0 after observing the bases
    p = _run(["coverage", "--case", "optional-input/conv-bn", "--pass", "ort:basics"], tmp_path)
    assert p.returncode == 2, (p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    assert p.stderr.strip().splitlines() == [p.stderr.strip()], p.stderr[-2000:]
    assert p.stderr.startswith("passcheck: error: unknown pass id 'ort:basics'")
    assert not (tmp_path / "cache" / "coverage").exists()  # refused before the catalogue was read


def test_hunt_counts_the_coverage_map_it_builds_on_its_progress_line(tmp_path):
    # uncached, the map of the whole library took 10+ minutes before the budget started: with no
    # line in that time, 'hunt --budget 2m' in a CI log looked hung; now its rows are observed inside
    # the budget (passcheck.hunt.lazymap) and each item's line counts them. One --pass: the map then observes
    # the one catalogue tool that pass runs (lazymap.LazyMap's ``passes``), and the line counts bases, not tools;
    # without it the first hunt observed the base under all eleven tools (tests/hunt/test_lazymap.py observes
    # every tool in process)
    hunt = ["hunt", "--budget", "1items", "--case", "optional-input/conv-bn", "--no-generated"]
    hunt += ["--pass", "onnx:infer-shapes"]
    p = _run([*hunt, "--out", "h"], tmp_path, PASSCHECK_PROGRESS_EVERY="0", PASSCHECK_FORMS_CACHE="1")
    assert p.returncode in (0, 1), (p.returncode, p.stderr[-2000:])
    lines = p.stderr.splitlines()
    assert any(re.match(r"passcheck hunt: 1/1 items \(\d+ signatures; map: 1/1 bases: ", x) for x in lines), lines
    assert "passcheck hunt: map: 1/1 bases steered the last step (1 observed or read from the cache)" in lines
    q = _run([*hunt, "--out", "q", "-q"], tmp_path, PASSCHECK_FORMS_CACHE="1")  # the first hunt's forms listing
    assert q.returncode in (0, 1), q.stderr[-2000:]
    assert "1/1 items" not in q.stderr  # -q silences it with the rest of the progress


def test_mutate_refuses_an_out_folder_it_cannot_make_before_building_mutants(relu, tmp_path):  # noqa: F811
    # the folder was made after every mutant was built and verified: all that work, then exit 2
    out = f"{relu}/mutants"  # under a file: no folder can be made there
    p = _run(["mutate", str(relu), "--out", out, "--progress", "lines"], tmp_path, PASSCHECK_PROGRESS_EVERY="0.01")
    assert p.returncode == 2, (p.returncode, p.stderr[-2000:])
    assert p.stderr.strip().splitlines() == [p.stderr.strip()], p.stderr[-2000:]  # no progress line before it
    assert p.stderr.startswith(f"passcheck: error: --out {out}: "), p.stderr


def test_one_stream_has_one_writer_and_a_cell_written_twice_counts_once(tmp_path):
    # two 'run --stream s.jsonl --resume' at once each appended the cells left to do: 592 cells in
    # a stream of a 394-cell plan, and 'passcheck report s.jsonl' counted 592 cells, 39 findings
    import fcntl

    run = ["run", "--case", "optional-input/conv-bn", "--pass", "ort:basic", "--stream", "s.jsonl", "-q"]
    first = _run(run, tmp_path)
    assert first.returncode == 1, first.stderr[-2000:]  # the seed's parity finding
    stream = tmp_path / "s.jsonl"
    text = stream.read_text()
    with open(stream, "a") as held:  # another run holds it
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        p = _run([*run, "--resume"], tmp_path)
    assert p.returncode == 2, (p.returncode, p.stderr[-2000:])
    assert p.stderr.strip().splitlines() == [p.stderr.strip()], p.stderr[-2000:]
    assert "another passcheck run is writing this stream" in p.stderr
    assert stream.read_text() == text
    cells = [line for line in text.splitlines() if '"type": "cell"' in line]
    stream.write_text(text + "\n".join(cells) + "\n")  # what two writers left
    once = _run(["report", "s.jsonl", "--format", "terminal"], tmp_path)
    assert f"{len(cells)} cells: 1 unexpected findings" in once.stdout, once.stdout[-2000:]


@pytest.mark.parametrize("command", [["mutate", "--out", "m"], ["annotations"]])
def test_q_silences_the_progress_of_every_command_the_readme_names(relu, tmp_path, command):  # noqa: F811
    # the README: progress on run, check, compare, mutate, annotations and matrix, '-q' silences it;
    # mutate and annotations (and hunt, bisect) refused -q: exit 2, 'unrecognized arguments'
    p = _run([command[0], str(relu), *command[1:], "-q"], tmp_path, PASSCHECK_PROGRESS_EVERY="0")
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stderr == ""
