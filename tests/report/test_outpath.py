"""An output path under a file names that file, not a missing folder (round 24u: `--json model.onnx/x.json`)."""

from __future__ import annotations

from passcheck.report.outpath import file_problem


def test_a_path_under_a_file_names_the_file(tmp_path):
    model = tmp_path / "model.onnx"
    model.write_bytes(b"x")
    problem = file_problem(str(model / "x.json"))
    assert problem == f"{model} is a file, not a folder; choose another path"
    deeper = file_problem(str(model / "a" / "b" / "x.json"))
    assert deeper == f"{model} is a file, not a folder; choose another path"


def test_a_missing_folder_is_still_said_missing(tmp_path):
    missing = tmp_path / "nope"
    assert file_problem(str(missing / "x.json")) == f"folder {missing} does not exist; create it or choose another path"


def test_a_writable_folder_has_no_problem(tmp_path):
    assert file_problem(str(tmp_path / "x.json")) is None
