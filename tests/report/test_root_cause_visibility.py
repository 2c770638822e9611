"""Root-cause grouping never hides a finding whose form or output differs from its representative's
(issue 31): a form-only wrong result stays its own root cause beside a wrong result every form has."""

from __future__ import annotations

from rich.console import Console

from passcheck.records import CellResult, Finding
from passcheck.report import terminal
from passcheck.report.rootcause import root_causes


def _wrong(form: str, output: str, err: str, pass_id: str = "ort:basic", binding: int = 0) -> Finding:
    return Finding(
        "wrong-result",
        "numeric",
        "c",
        form,
        pass_id,
        f"output {output!r} (binding {binding}): max abs error {err} (rtol 1e-4, atol 1e-5)",
        {"binding": binding, "output": output},
    )


def _cells() -> list[CellResult]:
    every = {form: _wrong(form, "y", "3.0") for form in ("common", "u1", "u2")}  # one defect, on every form
    cells = [CellResult("c", form, "ort:basic", "changed", findings=[f]) for form, f in every.items()]
    cells[2].findings += [_wrong("u2", "z", "0.5"), _wrong("u2", "y", "3.0", binding=1)]  # z: only u2's
    return cells


def test_a_form_only_wrong_result_stays_visible_beside_an_every_form_finding():
    causes = root_causes(_cells())
    assert sorted((c.finding.form, c.finding.details["output"]) for c in causes) == [("common", "y"), ("u2", "z")]
    alone = next(c for c in causes if c.finding.details["output"] == "z")
    assert alone.explains == [alone.finding]
    every = next(c for c in causes if c.finding.details["output"] == "y")
    assert [(f.form, f.details["binding"]) for f in every.explains] == [("common", 0), ("u1", 0), ("u2", 0), ("u2", 1)]
    console = Console(record=True, width=300)
    terminal.render(_cells(), console, show_grid=False)
    text = console.export_text()
    assert "c | u2 | ort:basic | local | numeric: [wrong-result] output 'z'" in text  # a headline, not "also explains"
    assert "(2 root causes)" in text


def test_an_input_finding_explains_pass_findings_on_its_own_form_only():
    msg = "onnxruntime cannot run this form: NOT_IMPLEMENTED : no kernel for AveragePool(1)"
    on_u = Finding("rejected", "acceptance", "c", "u", "input", msg)
    same_form = Finding("rejected", "acceptance", "c", "u", "ort:basic", msg)
    other_form = Finding("rejected", "acceptance", "c", "common", "ort:basic", msg)
    cells = [CellResult("c", f.form, f.pass_id, "changed", findings=[f]) for f in (on_u, same_form, other_form)]
    causes = root_causes(cells)
    by_rep = {(c.finding.form, c.finding.pass_id): [(f.form, f.pass_id) for f in c.explains] for c in causes}
    assert by_rep == {
        ("u", "input"): [("u", "input"), ("u", "ort:basic")],
        ("common", "ort:basic"): [("common", "ort:basic")],
    }
