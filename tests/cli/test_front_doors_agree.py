"""A new user's findings on the candidate release: ``--case CASE:FORM`` selects that form (an
unknown form is a usage error, not a run of every form); a repeated ``--pass`` runs once; the
summary counts the cells its UNCHECKED lines name; ``triage`` exits 1 when its budget leaves a
candidate unreached."""

from __future__ import annotations

import json

import pytest
from onnx import parser
from rich.console import Console

from passcheck.api import check_model
from passcheck.cases import registry
from passcheck.cli import main
from passcheck.errors import UnknownIdError
from passcheck.report import terminal
from passcheck.testing import as_adapter, registered
from tests._inproc import cli
from tests.engine.test_unchecked import UNRUNNABLE
from tests.quality.planted import invalid_output

CASE = "data-prop/reshape-flatten"


def test_an_unknown_form_is_a_one_line_usage_error_before_any_work():
    p = cli("run", "--case", f"{CASE}:nosuchform", "--pass", "onnx:infer-shapes", "-q")
    assert p.returncode == 2, (p.stdout[-2000:], p.stderr[-2000:])
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("passcheck: error: unknown form id 'nosuchform'"), p.stderr
    assert "identity" in lines[0] and "Traceback" not in p.stderr and p.stdout == ""


def test_case_form_glob_reports_only_those_forms_and_a_repeated_pass_runs_once(tmp_path):
    out = tmp_path / "r.json"
    argv = ["run", "--case", f"{CASE}:c*", "--pass", "onnx:infer-shapes", "--pass", "onnx:infer-shapes"]
    assert main([*argv, "--json", str(out), "-q"]) == 0
    cells = [r for r in json.loads(out.read_text())["results"] if r.get("type") == "cell"]
    forms = {f for f in registry().get(CASE).forms if f.startswith("c")}
    assert {c["form"] for c in cells} == forms == {"common", "cast-same", "concat-negative-axis"}
    keys = [(c["form"], c["pass_id"]) for c in cells]
    assert sorted(keys) == sorted({(f, p) for f in forms for p in ("input", "onnx:infer-shapes")}), keys


def test_a_tag_holding_a_colon_is_still_a_tag_and_its_forms_can_be_chosen():
    tagged = registry().select(["dtype:bfloat16"])
    assert tagged and all("dtype:bfloat16" in c.tags for c in tagged)
    assert registry().select(["dtype:bfloat16:common"]) == tagged
    with pytest.raises(UnknownIdError, match="unknown form id 'zzz'"):
        registry().select(["dtype:bfloat16:zzz"])


def test_list_shows_only_the_chosen_forms(capsys):
    assert main(["list", "--case", f"{CASE}:c*", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert [f["id"] for f in row["forms"]] == ["common", "concat-negative-axis", "cast-same"]


def test_the_summary_counts_an_unchecked_cell_that_also_has_a_finding():
    """The pass output is invalid (a finding) and the form never runs (its output not compared):
    verdict ``findings``, an UNCHECKED line, and the summary must count it."""
    with registered(as_adapter(invalid_output, "user:invalid")) as pid:
        report = check_model(parser.parse_model(UNRUNNABLE), [pid])
    cell = next(c for c in report.cells if c.pass_id == pid)
    assert cell.verdict == "findings" and cell.unchecked, (cell.verdict, cell.unchecked)
    console = Console(record=True, width=400)
    terminal.render(report.cells, console)
    text = console.export_text()
    assert text.count("UNCHECKED ") == 1 and "1 cell unchecked" in text, text
    assert report.exit_code == 1
    cell.unchecked_known = "accepted in known.json"  # as a baseline entry marks it
    console = Console(record=True, width=400)
    terminal.render(report.cells, console)
    text = console.export_text()
    assert "(known: accepted in known.json)" in text and "0 cells unchecked" in text, text


def test_a_repeated_pass_is_kept_once_in_order_by_every_command_taking_pass():
    import argparse

    from passcheck.cli import build_parser

    root = build_parser()
    (sub,) = [a for a in root._actions if isinstance(a, argparse._SubParsersAction)]
    taking = {}
    for name, p in sub.choices.items():
        for action in p._actions:
            if "--pass" in action.option_strings:
                taking[name] = action
    assert {"run", "check", "compare", "matrix", "coverage", "hunt", "reduce"} <= set(taking), sorted(taking)
    for name, action in taking.items():
        ns = argparse.Namespace(**{action.dest: []})
        for value in ("b", "a", "b"):
            action(root, ns, value, "--pass")
        assert getattr(ns, action.dest) == ["b", "a"], name
    assert root.parse_args(["run", "--pass", "b", "--pass", "a", "--pass", "b"]).passes == ["b", "a"]


def test_export_writes_only_the_chosen_forms(tmp_path, capsys):
    assert main(["export", str(tmp_path / "ex"), "--case", f"{CASE}:c*", "--no-isolation"]) == 0
    assert sorted(p.name for p in (tmp_path / "ex" / CASE).iterdir()) == ["cast-same", "common", "concat-negative-axis"]
