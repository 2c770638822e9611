"""A skipped cell says why in the terminal report, not only in the JSON: a user's form the installed onnx
cannot build (a parse error) is one ``SKIPPED case | env: reason (N cells)`` line (found by a new-user trial:
the grid showed ``skip`` and the summary "4 skipped", the reason was in ``--json`` alone)."""

from __future__ import annotations

from passcheck.cli import main
from passcheck.records import CellResult
from passcheck.report.summary import skipped_lines

CASE = """
import onnx.parser
from passcheck.cases import Case, Form, register

GOOD = '<ir_version: 8, opset_import: ["" : 17]> g (float[2] x) => (float[2] y) { y = Relu(x) }'


def _good():
    return onnx.parser.parse_model(GOOD)


def _broken():
    return onnx.parser.parse_model(GOOD[:-1])  # the closing brace left out


FORMS = {"common": Form(_good), "broken": Form(_broken, "no brace")}
register(Case(id="skipped/parse", forms=FORMS, doc="y = Relu(x)", opset=17))
"""


def test_skipped_cells_are_grouped_by_case_and_reason():
    cells = [
        CellResult("a", "common", p, "skipped", error="onnx 1.16 cannot build form 'x'") for p in ("input", "ort:basic")
    ]
    cells.append(CellResult("b", "common", "input", "changed"))
    assert skipped_lines(cells) == ["a | local: onnx 1.16 cannot build form 'x' (2 cells)"]


def test_the_terminal_report_says_why_a_users_form_was_skipped(tmp_path, capfd):
    module = tmp_path / "skip_cases.py"
    module.write_text(CASE)
    main(
        ["run", "--cases-from", str(module), "--case", "skipped/*", "--pass", "onnx:infer-shapes", "--progress", "none"]
    )
    cap = capfd.readouterr()
    out = cap.out + cap.err
    line = next((ln for ln in out.splitlines() if ln.startswith("SKIPPED skipped/parse")), None)
    assert line and "cannot build form 'broken'" in line and "ParseError" in line, out
