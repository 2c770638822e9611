"""Findings one defect explains are reported once, with the cells it explains, and counted as one
root cause; finding ids (what baselines key on) do not change."""

from __future__ import annotations

import json
from pathlib import Path

import onnx
from rich.console import Console

from passcheck.api import check_model
from passcheck.records import Finding
from passcheck.report import read_report, terminal, write_report
from passcheck.report.rootcause import normalize, root_causes, signature

DATA = Path(onnx.__file__).parent / "backend/test/data"


def test_a_model_onnxruntime_cannot_run_is_one_root_cause(tmp_path):
    # onnxruntime has no AveragePool-1 kernel: the form itself and every ORT level fail alike.
    report = check_model(DATA / "pytorch-converted/test_AvgPool1d/model.onnx", ["ort:disabled", "ort:basic"])
    causes = root_causes(report.cells)
    assert len(report.findings) == 3 and len(causes) == 1, [f.headline() for f in report.findings]
    assert causes[0].finding.pass_id == "input" and causes[0].cells() == [
        "common | input | local",
        "common | ort:disabled | local",
        "common | ort:basic | local",
    ]
    console = Console(record=True, width=400)
    terminal.render(report.cells, console, show_grid=False)
    text = console.export_text()
    assert "3 unexpected findings (1 root cause)" in text and "also explains 2: common | ort:disabled" in text
    assert text.count("reproduce: ") == 1 and report.exit_code == 1
    out = tmp_path / "r.json"
    write_report(out, report.cells, report.environments)
    doc = json.loads(out.read_text())
    assert doc["summary"]["root_causes"] == 1 and doc["summary"]["unexpected"] == 3
    assert [e["id"] for e in doc["root_causes"][0]["explains"]] == [f.id for f in report.findings]
    cells, _ = read_report(out)
    assert [f.id for c in cells for f in c.findings] == [f.id for f in report.findings]


def test_an_invalid_output_that_fails_to_run_on_cumulative_levels_is_one_root_cause():
    # onnxruntime saves an IR-3 SqueezeNet with initializers missing from graph.input at every level.
    report = check_model(DATA / "light/light_squeezenet.onnx", ["ort:basic", "ort:extended"])
    kinds = sorted(f.kind for f in report.findings)
    assert kinds == ["invalid-model", "invalid-model", "wrong-result", "wrong-result"], [
        f.headline() for f in report.findings
    ]
    causes = root_causes(report.cells)
    assert len(causes) == 1 and causes[0].finding.pass_id == "ort:basic" and causes[0].finding.kind == "invalid-model"
    assert len(causes[0].explains) == 4


def _f(message: str, form: str = "common", pass_id: str = "ort:basic", case: str = "c") -> Finding:
    return Finding("rejected", "acceptance", case, form, pass_id, message)


def test_signature_strips_names_and_numbers_but_keeps_op_types():
    assert (
        normalize("Could not find an implementation for AveragePool(1) node with name 'a_1'")
        == "Could not find an implementation for AveragePool(<n>) node with name <name>"
    )
    assert signature(_f("ort:basic declined: fc8_w_0 in initializer")) == signature(
        _f("ort:basic declined: bn_B_token_569 in initializer", form="mutant")
    )
    assert signature(_f("no kernel for AveragePool")) != signature(_f("no kernel for MaxPool"))


def test_distinct_causes_and_cases_stay_apart():
    from passcheck.records import CellResult

    cells = [
        CellResult("c", "common", "ort:basic", "declined", findings=[_f("no kernel for AveragePool")]),
        CellResult(
            "c",
            "common",
            "onnx:infer-shapes",
            "declined",
            findings=[_f("no kernel for AveragePool", pass_id="onnx:infer-shapes")],
        ),
        CellResult("d", "common", "ort:basic", "declined", findings=[_f("no kernel for AveragePool", case="d")]),
        CellResult("c", "x", "ort:basic", "declined", findings=[_f("no kernel for MaxPool", form="x")]),
    ]
    assert len(root_causes(cells)) == 4


def test_what_the_form_itself_shows_is_not_a_pass_finding_again():
    from passcheck.records import CellResult

    seen = "graph input annotation does not hold (binding 0): x: annotated rank 2 [2, 3], run produced shape [6]"
    cells = [
        CellResult(
            "c",
            "common",
            "input",
            "unchanged",
            findings=[Finding("annotation-violated", "annotations", "c", "common", "input", seen)],
        ),
        CellResult(
            "c",
            "common",
            "ort:basic",
            "changed",
            findings=[Finding("annotation-violated", "annotations", "c", "common", "ort:basic", seen)],
        ),
    ]
    causes = root_causes(cells)
    assert len(causes) == 1 and causes[0].finding.pass_id == "input" and len(causes[0].explains) == 2


def test_a_single_site_form_represents_its_rewrite_but_never_before_common():
    from passcheck.records import CellResult

    def cells(*forms):
        return [CellResult("c", f, "ort:basic", "declined", findings=[_f("no kernel for Pad", form=f)]) for f in forms]

    assert (
        root_causes(cells("empty-optional-input", "empty-optional-input@n3"))[0].finding.form
        == "empty-optional-input@n3"
    )
    assert root_causes(cells("empty-optional-input", "empty-optional-input@n3", "common"))[0].finding.form == "common"
    # a pair of rewrites is more change than one rewrite, even at every site at once
    pair = "empty-optional-input@n3+initializer-to-constant@W"
    assert root_causes(cells(pair, "empty-optional-input"))[0].finding.form == "empty-optional-input"
    assert (
        root_causes(cells(pair, "empty-optional-input", "empty-optional-input@n3"))[0].finding.form
        == "empty-optional-input@n3"
    )
