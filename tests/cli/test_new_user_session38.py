"""A new user's trial (session 38, docs/recall.md round 17j): a report-reading command given a hunt's folder (or its
``hunt-state.json``), a ``--save-run`` folder or another folder says what it was given and which command reads it,
in one line and exit 2 (before: "cannot read report: Is a directory", or "not a passcheck report")."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.cli import main

COMMANDS = {
    "report": lambda p, out: ["report", p],
    "repro": lambda p, out: ["repro", p, "--out", out],
    "reduce": lambda p, out: ["reduce", p, "--out", out],
    "attribute": lambda p, out: ["attribute", p],
    "bisect": lambda p, out: ["bisect", p, "--finding", "x", "--package", "onnx", "--from", "1.18.0", "--to", "1.19.0"],
}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """A real one-item hunt's folder and a real ``check --save-run`` folder of a one-Relu model."""
    root = tmp_path_factory.mktemp("nu38")
    hunt = root / "h"
    argv = ["hunt", "--budget", "1items", "--case", "optional-input/conv-mul", "--pass", "onnx:infer-shapes"]
    assert main([*argv, "--no-variation", "--no-compose", "--out", str(hunt), "--progress", "none"]) in (0, 1)
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    model = root / "relu.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), model)
    saved = root / "sr"
    assert main(["check", str(model), "--pass", "onnx:infer-shapes", "--save-run", str(saved), "-q"]) == 0
    return root, hunt, saved


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("passcheck: error:") and "Traceback" not in err[0], err
    return err[0]


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("state_file", [False, True], ids=["folder", "state-file"])
def test_a_hunt_folder_is_named_with_the_command_that_reads_it(command, state_file, folders, capsys):
    root, hunt, _ = folders
    given = str(hunt / "hunt-state.json") if state_file else str(hunt)
    assert main(COMMANDS[command](given, str(root / f"out-{command}"))) == 2
    line = _one_line(capsys)
    assert f"{given}: a hunt's output, not a report" in line, line
    assert f"'passcheck triage {hunt} --out DIR'" in line and str(hunt / "summary.md") in line, line
    assert not (root / f"out-{command}").exists()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_saved_run_folder_names_report_rejudge(command, folders, capsys):
    root, _, saved = folders
    assert main(COMMANDS[command](str(saved), str(root / f"sr-{command}"))) == 2
    line = _one_line(capsys)
    assert f"'passcheck report --rejudge {saved} --format json --out RUN.json'" in line, line


def test_the_rejudge_command_it_names_writes_a_report_the_commands_read(folders, capsys):
    root, _, saved = folders
    out = root / "rejudged.json"
    assert main(["report", "--rejudge", str(saved), "--format", "json", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert "2 cells: 0 unexpected findings" in capsys.readouterr().out


def test_any_other_folder_is_a_folder_not_a_report(folders, capsys):
    root, _, _ = folders
    empty = root / "empty"
    empty.mkdir()
    assert main(["report", str(empty)]) == 2
    assert f"{empty}: a folder, not a report (RUN.json" in _one_line(capsys)


def test_an_overridable_bound_folded_into_clip_is_known_to_the_hunt_and_to_triage(tmp_path, capsys):
    """found.md row 492 (onnxscript:optimize reads an initializer that is also a graph input as a constant: Max/Min
    with an overridable bound) was in no documented.json entry: README's one-minute hunt met it and both the hunt
    and triage called it new. A real hunt of the row's own base under its neighbour, then its triage."""
    hunt, triaged = tmp_path / "h", tmp_path / "t"
    argv = ["hunt", "--case", "pattern-onnxscript/max-min-clip", "--pass", "onnxscript:optimize"]
    argv += ["--vary-kind", "default-fed", "--budget", "4items", "--no-compose", "--out", str(hunt)]
    assert main([*argv, "--progress", "none"]) == 0
    summary = (hunt / "summary.md").read_text(encoding="utf-8")
    for op in ("Max", "Min"):
        line = next(x for x in summary.splitlines() if f"wrong-result\\|{op}\\|vary:default-fed" in x)
        assert "known (found.md row 492)" in line, line
    capsys.readouterr()
    assert main(["triage", str(hunt), "--out", str(triaged)]) == 0
    index = (triaged / "index.md").read_text(encoding="utf-8")
    assert "known (found.md row 492)" in index and "| new |" not in index, index


def test_export_into_a_file_is_one_line_naming_the_path_given(tmp_path, capsys):
    """Before: the error named a folder inside the file (``tiny.onnx/annotations/…/common: Not a directory``)."""
    target = tmp_path / "tiny.onnx"
    target.write_bytes(b"not a folder")
    assert main(["export", str(target), "--case", "optional-input/conv-mul"]) == 2
    assert f"export {target}: exists and is not a folder; choose a folder path" in _one_line(capsys)
    assert target.read_bytes() == b"not a folder"
