"""``passcheck.oracles.judged.Judged.repro_of``: only a finding about a time limit passcheck set gets
``--timeout`` in its reproduce command (``passcheck.records.timed_out``); the others keep the command as is."""

from __future__ import annotations

from passcheck.oracles._contract import Cells
from passcheck.oracles.judged import Judged
from passcheck.records import Finding


def _finding(message: str, details: dict) -> Finding:
    return Finding("error", "validity", "c", "common", "p", message, details)


def test_only_a_timed_out_finding_gets_the_runs_timeout_in_its_command():
    judged = Judged(Cells(runs=[]), {}, "passcheck check m.onnx", "local", [], timeout=7.0)
    late = _finding("the pass was killed at its limit", {"status": "timeout"})
    other = _finding("the pass raised", {"status": "error", "error": "ValueError: bad"})
    assert judged.repro_of(late) == "passcheck check m.onnx --timeout 7"
    assert judged.repro_of(other) == "passcheck check m.onnx"


def test_every_finding_of_a_judged_group_carries_its_reproduce_command():
    from onnx import parser

    from passcheck.engine import INPUT, Subject, evaluate
    from tests.oracles.test_contract import NEG, RELU

    forms = {"common": parser.parse_model(RELU), "neg": parser.parse_model(NEG)}
    subject = Subject("repro/neg", forms, [{}, {}], repro="passcheck check m.onnx --pass {pass}")
    cells = {c.form: c for c in evaluate(subject, [INPUT])}
    assert cells["neg"].findings  # Neg computes other numbers than Relu: a numeric finding
    assert {f.repro for f in cells["neg"].findings} == {"passcheck check m.onnx --pass input"}
