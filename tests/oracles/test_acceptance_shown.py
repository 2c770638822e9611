"""What an acceptance finding says about the forms a pass accepted, and which unavailable runs count as a
stated limit: behaviours survivors of ``bench/mutation_score.py`` showed unguarded. Outcomes as
onnxruntime's ``ort:basic`` adapter returns them (its real output for the forms it accepts)."""

from __future__ import annotations

from onnx import parser

from passcheck.oracles._context import FormRun
from passcheck.oracles.acceptance import check
from passcheck.passes import PassOutcome, get_pass
from tests.oracles.test_contract import RELU


def _runs(tmp_path, accepted: int, last: PassOutcome) -> list[FormRun]:
    """``accepted`` forms ``f0``… that ``ort:basic`` optimizes, then form ``last`` with the outcome ``last``."""
    model = parser.parse_model(RELU)
    ok = get_pass("ort:basic").run(model, tmp_path)
    assert ok.ok, ok.error
    runs = [FormRun("c", f"f{i}", "ort:basic", model, ok, [], [], []) for i in range(accepted)]
    return [*runs, FormRun("c", "last", "ort:basic", model, last, [], [], [])]


def test_a_rejection_names_up_to_five_accepted_forms_and_counts_the_rest(tmp_path):
    """Mutants killed: ``SHOWN = 5`` → ``6``, and ``len(forms) > SHOWN`` → ``>=`` in ``_shown``: five accepted
    forms were followed by "… (5 in all)", six were all named."""
    crashed = PassOutcome("ort:basic", "crashed", None, error="boom")
    (five,) = check(_runs(tmp_path, 5, crashed))
    assert five.message == "ort:basic crashed on this form only (accepted: f0, f1, f2, f3, f4): boom", five.message
    (six,) = check(_runs(tmp_path, 6, crashed))
    assert six.message.endswith("(accepted: f0, f1, f2, f3, f4, … (6 in all)): boom"), six.message
    assert six.details["accepted_forms"] == [f"f{i}" for i in range(6)]


def test_a_pass_unavailable_for_another_reason_than_a_stated_limit_is_no_finding(tmp_path):
    """Mutant killed: ``status == "unavailable" and error.startswith(STATED_LIMIT)`` → ``or``: a form whose pass
    was unavailable because its tool is missing was said to cite a limit the tool documents."""
    missing = PassOutcome("ort:basic", "unavailable", None, error="onnxruntime is not installed")
    assert check(_runs(tmp_path, 2, missing)) == []
