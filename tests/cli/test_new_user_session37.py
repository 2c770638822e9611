"""A new user's trial (session 37, docs/recall.md round 16j): an unknown first word gets a guess read from the
parser (a subcommand flag it spells, else a close subcommand name), still one line and exit 2."""

from __future__ import annotations

import pytest

from passcheck.cli import main


@pytest.mark.parametrize(
    ("word", "guess"),
    [
        ("passes", "'passcheck list --passes'"),
        ("rewrites", "'passcheck list --rewrites'"),
        ("tags", "'passcheck list --tags'"),
        ("chek", "'passcheck check'"),
        ("Hunt", "'passcheck hunt'"),
    ],
)
def test_an_unknown_command_names_what_was_probably_meant(word, guess, capsys):
    assert main([word]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("passcheck: error:"), err
    assert f"did you mean {guess}?" in err[0], err[0]
    assert "Traceback" not in err[0]


def test_a_word_close_to_nothing_gets_no_guess(capsys):
    assert main(["zzzz"]) == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err and "invalid choice: 'zzzz'" in err, err


def test_a_subcommand_usage_error_is_left_as_it_was(capsys):
    assert main(["list", "--passess"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --passess" in err and "did you mean" not in err, err


def test_attribute_of_an_interrupted_runs_report_says_it_holds_part_of_the_run(tmp_path):
    """``attribute`` on a partial report (``"partial": true``, what Ctrl-C leaves) that holds no parity finding ends
    with exit 0 and "nothing to attribute": true of the cells it holds, so it says, as ``report`` does, that the
    cells the run had not reached are not in it."""
    import json

    import onnx
    from onnx import TensorProto, helper

    from tests._inproc import cli

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]), str(tmp_path / "m.onnx"))
    run = cli("check", tmp_path / "m.onnx", "--pass", "ort:basic", "--json", tmp_path / "r.json", "-q")
    assert run.returncode == 0, run.stderr
    whole = cli("attribute", tmp_path / "r.json")
    assert whole.returncode == 0 and "interrupted" not in whole.stderr, whole.stderr
    doc = json.loads((tmp_path / "r.json").read_text())
    (tmp_path / "r.json").write_text(json.dumps({**doc, "partial": True}))
    part = cli("attribute", tmp_path / "r.json")
    assert part.returncode == 0, part.stderr
    assert "r.json: the run that wrote it was interrupted; the cells it had not reached" in part.stderr, part.stderr
    assert "nothing to attribute" in part.stderr and "Traceback" not in part.stderr
