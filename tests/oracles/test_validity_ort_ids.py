"""Which pass ids write a model for onnxruntime (``validity.FOR_ORT``): an output holding onnxruntime's own
ops gets the note that they were judged as onnxruntime's only from those; a survivor of
``bench/mutation_score.py`` showed it unguarded. The output is onnxruntime's real ``ort:extended`` fusion."""

from __future__ import annotations

from onnx import parser

from passcheck.oracles import validity
from passcheck.oracles._context import FormRun
from passcheck.passes import PassOutcome, known_pass_ids
from tests.oracles.test_ort_own_ops import RMS, _fused


def test_a_pass_id_sorting_after_onnxscripts_optimize_for_ort_writes_no_model_for_onnxruntime():
    """Mutant killed: ``run.pass_id == p`` → ``>=`` in ``_ort_saved``: any id sorting after
    ``onnxscript:optimize-for-ort`` (``onnxslim:slim``, ``onnxsim:simplify``) was taken for one written for
    onnxruntime, and its output's SimplifiedLayerNormalization noted as onnxruntime's own op."""
    fused, model = _fused(), parser.parse_model(RMS)

    def noted(pid: str) -> dict:
        return validity.notes(FormRun("c", "f", pid, model, PassOutcome(pid, "changed", fused), [], [], []))

    assert noted("onnxscript:optimize-for-ort") and noted("ort-transformers:bert")  # control: the listed ids
    assert noted("ort-format:all")  # onnxruntime's ONNX save of the graph it loaded from its ORT format
    for pid in ("onnxslim:slim", "onnxsim:simplify"):
        assert pid in known_pass_ids() and pid > "onnxscript:optimize-for-ort"
        assert noted(pid) == {}, pid
