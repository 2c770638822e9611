"""Root-cause counting, the checker-rejected-output rule (rule 2) and the input-finding rule (rule 1) of
``report/rootcause.py`` on findings as the oracles write them."""

from __future__ import annotations

from passcheck.records import CellResult, Finding
from passcheck.report.rootcause import count, root_causes, unexpected_phrase


def _cell(pass_id: str, *findings: Finding) -> CellResult:
    cell = CellResult("c", "common", pass_id, "ok")
    cell.findings.extend(findings)
    return cell


def _invalid(pass_id: str, expected: bool = False) -> Finding:
    message = f"the checker rejects the output of {pass_id}: Field 'type' of 'value_info' is required"
    return Finding("invalid-model", "validity", "c", "common", pass_id, message, expected=expected)


def test_only_a_failed_run_of_a_rejected_output_is_explained_by_the_rejection():
    fails = Finding(
        "wrong-result", "numeric", "c", "common", "ort:basic", "the output of ort:basic fails to run (binding 0): x"
    )
    wrong = Finding(
        "wrong-result", "numeric", "c", "common", "ort:basic", "output 'y' (binding 0): 3 of 6 elements differ"
    )
    (cause, other) = root_causes([_cell("ort:basic", _invalid("ort:basic"), fails, wrong)])
    assert cause.explains == [cause.finding, fails] and other.explains == [wrong]


def test_counts_and_phrase_say_how_many_causes_hold_an_unexpected_finding():
    known, new = _cell("ort:basic", _invalid("ort:basic", expected=True)), _cell("onnx:shape-inference", _invalid("x"))
    assert count([known, new]) == {"root_causes": 2, "unexpected_root_causes": 1}
    assert count([known]) == {"root_causes": 1, "unexpected_root_causes": 0}
    causes = root_causes([known, new])
    assert unexpected_phrase(causes) == "1 root cause"
    assert unexpected_phrase(causes[:1]) == "0 root causes" and unexpected_phrase([]) == "0 root causes"


def _on(form: str, pass_id: str, *findings: Finding) -> CellResult:
    cell = CellResult("c", form, pass_id, "ok")
    cell.findings.extend(findings)
    return cell


def test_the_input_finding_represents_a_cause_whatever_the_pass_id_sorts_like():
    error = "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model failed"
    cant = Finding("rejected", "runtime", "c", "rare", "input", "onnxruntime cannot run this form", {"error": error})
    msg = "the output of cmd:opt fails to run (binding 0): x"
    fails = Finding("wrong-result", "numeric", "c", "rare", "cmd:opt", msg, {"error": error})
    # the user command's cell comes first in report order; "cmd:opt" sorts before "input"
    (cause,) = root_causes([_on("rare", "cmd:opt", fails), _on("rare", "input", cant)])
    assert cause.finding is cant and cause.explains == [cant, fails]


def test_an_input_finding_explains_only_pass_findings_with_its_own_error():
    def invalid(pass_id: str, error: str) -> Finding:
        return Finding(
            "invalid-model", "validity", "c", "rare", pass_id, f"the checker rejects: {error}", {"error": error}
        )

    source, other = (
        invalid("input", "Field 'type' is required"),
        invalid("ort:basic", "Graph must be in single SSA form"),
    )
    assert len(root_causes([_on("rare", "input", source), _on("rare", "ort:basic", other)])) == 2
    same = invalid("ort:basic", "Field 'type' is required")
    (cause,) = root_causes([_on("rare", "input", source), _on("rare", "ort:basic", same)])
    assert cause.explains == [source, same]
