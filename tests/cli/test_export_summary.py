"""``passcheck export``'s summary line tells a case skipped here (its onnx range, with why) from a
selected case that has no form a ``GLOB:FORMGLOB`` names: exporting ``generated/*:symbolic`` once
listed the 1,583 generated cases without a symbolic form, one line of 40 kB, as "skipped here"."""

from __future__ import annotations

from passcheck.cli import main


def test_cases_without_the_named_form_are_counted_not_listed_as_skipped(tmp_path, capsys):
    assert main(["export", str(tmp_path / "ex"), "--case", "optional-input/*:zero-bias", "--no-isolation"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("wrote 1 form(s) of 1 case(s)"), out
    assert "selected case(s) have no form the --case form glob matches" in out, out
    assert "skipped here" not in out and "optional-input/conv-bn" not in out, out
    assert [p.name for p in (tmp_path / "ex" / "optional-input").iterdir()] == ["layernorm-bias"]


def test_a_case_skipped_here_is_named_with_why(tmp_path, capsys):
    plant = tmp_path / "future_case.py"
    plant.write_text(
        "from passcheck.cases import Case, Form, register\n"
        "from passcheck.cases.builders import FLOAT, model, node, vi\n\n"
        "def _m():\n"
        "    return model([node('Relu', ['x'], ['y'])], [vi('x', FLOAT, [2])], [vi('y', FLOAT, [2])], opset=17)\n\n"
        "register(Case(id='planted/future', forms={'common': Form(_m, 'a'), 'other': Form(_m, 'b')},\n"
        "              doc='needs a newer onnx', opset=17, min_onnx='99.0'))\n"
    )
    assert (
        main(["export", str(tmp_path / "ex"), "--cases-from", str(plant), "--case", "planted/*", "--no-isolation"]) == 0
    )
    out = capsys.readouterr().out
    assert "skipped here: planted/future (valid from onnx 99.0; installed" in out, out
