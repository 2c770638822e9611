"""Issue 11 items 2-3: what passcheck could not judge is reported as unchecked, with the reason,
in the cell, every renderer and the exit code; never as ok."""

from __future__ import annotations

import json

import numpy as np
import onnx
from onnx import parser

from passcheck.api import check_model
from passcheck.cli import main
from passcheck.records import CellResult
from passcheck.report import junit, markdown, terminal, write_report
from passcheck.report.json_report import read_report
from passcheck.testing import as_adapter, registered
from tests.quality.planted import negate_everything

#: onnxruntime cannot run this form (an op of an unregistered domain): no reference run.
UNRUNNABLE = """<ir_version: 8, opset_import: ["" : 18, "custom.x" : 1]>
g (float[2, 3] x) => (float[2, 3] y) { y = custom.x.Twice(x) }"""

#: onnxruntime runs it; the reference evaluator has no com.microsoft Gelu: the branch's
#: annotations can be observed by neither engine.
GELU_IN_BRANCH = """<ir_version: 8, opset_import: ["" : 18, "com.microsoft" : 1]>
g (bool c, float[N] x) => (float[N] y) {
  y = If(c) <then_branch = t () => (float[N] a) { a = com.microsoft.Gelu(x) },
             else_branch = e () => (float[N] b) { b = Identity(x) }>
}"""


def test_a_cell_with_outputs_never_compared_is_unchecked_everywhere(tmp_path):
    with registered(as_adapter(negate_everything, "user:negate")) as pid:
        report = check_model(parser.parse_model(UNRUNNABLE), [pid])
    cell = next(c for c in report.cells if c.pass_id == pid)
    assert cell.findings == [] and cell.verdict == "unchecked"
    assert "the unoptimized run of form 'common' fails" in cell.unchecked["output 'y'"]
    assert report.exit_code == 1
    assert CellResult.from_json(json.loads(json.dumps(cell.to_json()))).unchecked == cell.unchecked
    write_report(tmp_path / "r.json", report.cells, report.environments)
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["summary"]["verdicts"]["unchecked"] == 1
    rerender = ["report", str(tmp_path / "r.json"), "--format", "markdown", "--out", str(tmp_path / "r.md")]
    assert main(rerender) == 0  # re-rendered: the run that wrote it already failed
    assert main([*rerender, "--fail-on-findings"]) == 1  # asked for a verdict: still not ok
    md = markdown.render(report.cells)
    assert "**1 cell unchecked**" in md and "## Not checked" in md and "output 'y'" in md
    junit.write_junit(tmp_path / "j.xml", report.cells)
    assert 'type="unchecked"' in (tmp_path / "j.xml").read_text()
    from rich.console import Console

    console = Console(record=True, width=300)
    terminal.render(report.cells, console)
    text = console.export_text()
    assert "UNCHECKED model/g | common | user:negate" in text and "1 cell unchecked" in text


def test_old_reports_still_load(tmp_path):
    """A report written before ``unchecked`` existed loads, with nothing unchecked."""
    old = {
        "results": [
            {
                "type": "cell",
                "case": "c",
                "form": "common",
                "pass_id": "p",
                "status": "changed",
                "verdict": "ok",
                "findings": [],
            }
        ]
    }
    (tmp_path / "old.json").write_text(json.dumps(old))
    cells, _ = read_report(tmp_path / "old.json")
    assert cells[0].unchecked == {} and cells[0].verdict == "ok"


def test_annotations_no_engine_can_observe_are_unchecked(tmp_path, capsys):
    """Issue 11 item 2: the reference evaluator fails inside a branch that ran: not a pass."""
    model = parser.parse_model(GELU_IN_BRANCH)
    report = check_model(model, ["ort:disabled"], feeds=[{"c": np.array(True), "x": np.ones(3, np.float32)}])
    cell = next(c for c in report.cells if c.pass_id == "ort:disabled")
    assert cell.verdict == "unchecked" and report.exit_code == 1
    assert any(
        k.startswith("annotation ") and "reference evaluator could not run" in v for k, v in cell.unchecked.items()
    )
    assert cell.coverage["unobservable"] >= 1 and cell.coverage["reasons"]
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    np.savez(tmp_path / "f.npz", c=np.array(True), x=np.ones(3, np.float32))
    assert main(["annotations", str(path), "--feeds", str(tmp_path / "f.npz")]) == 1
    assert "were not checked" in capsys.readouterr().out
