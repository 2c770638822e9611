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
