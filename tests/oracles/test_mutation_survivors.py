"""Behaviours a survivor of ``bench/mutation_score.py`` showed unguarded, each pinned with the real tools."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import parser

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, Cells
from passcheck.oracles.runtime import ORACLE as RUNTIME
from passcheck.passes import PassOutcome
from passcheck.runtime.session import run_ort


def test_a_form_onnxruntime_cannot_run_says_real_feeds_may_be_needed_unless_they_were_given():
    """Mutant killed: ``Cells.feeds_given`` defaulting to True (a caller that does not say where the
    feeds came from would hide the hint that synthesized feeds may be what fails)."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[6] x, int64[2] shape) => (float[?, ?] y) { y = Reshape (x, shape) }""")
    feeds = {"x": np.ones(6, np.float32), "shape": np.array([4, 4], np.int64)}  # 16 elements from 6: cannot run
    baseline = run_ort(model, feeds)
    assert baseline.error
    run = FormRun("c", "common", "input", model, PassOutcome("input", "unchanged", model), [feeds], [baseline], [])
    (synthesized,) = RUNTIME.check(run, Cells([run], INPUT))
    assert synthesized.kind == "rejected" and "on synthesized feeds" in synthesized.message
    (given,) = RUNTIME.check(run, Cells([run], INPUT, feeds_given=True))
    assert "synthesized" not in given.message and "onnxruntime cannot run this form" in given.message


def test_an_axis_one_past_the_last_is_outside_the_documented_range_unless_the_end_is_inclusive():
    """Mutant killed: ``r - 1`` → ``r // 1`` in ``spec_rules.axes_in_range``, which let ``axis = rank`` through
    (Softmax documents ``[-r, r-1]``; Flatten ``[-r, r]``)."""
    from passcheck.oracles.conformance import evaluate

    def violations(op: str, axis: int) -> list[tuple[str, str]]:
        model = parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[?, ?] y) {{ y = {op} <axis = {axis}> (x) }}""")
        return [(v.rule, v.message) for v in evaluate(model).violations]

    assert violations("Softmax", 1) == [] and violations("Softmax", -2) == []
    assert violations("Softmax", 2) == [("axis-Softmax", "axis = 2: [2] outside [-2, 1] (rank 2)")]
    assert violations("Flatten", 2) == []
    assert violations("Flatten", 3) == [("flatten-axis", "axis = 3: [3] outside [-2, 2] (rank 2)")]


def test_a_symbol_only_asked_about_is_no_conflict():
    """Mutant killed: ``len(sizes) > 1`` → ``!= 1`` in ``BindingMap.conflicts``: asking the sizes of a
    symbol no value carries (an empty list in the map) made it a conflict with no occurrence."""
    from passcheck.oracles.binding import BindingMap, Occurrence

    b = BindingMap()
    b.add(Occurrence("N", "x", 0, 3, "output"))
    b.add(Occurrence("N", "y", 0, 3, "output"))
    assert b.sizes("M") == set() and b.sizes("N") == {3}
    assert b.conflicts() == {}
    b.add(Occurrence("N", "z", 1, 4, "output"))
    assert list(b.conflicts()) == ["N"] and len(b.conflicts()["N"]) == 3


def test_a_sequence_annotation_is_observed_whole_and_a_tensor_annotation_by_shape_only():
    """Mutant killed: ``!=`` → ``is`` in the annotations oracle's ``_asked``, which left every annotated
    sequence (optional, map) value out of what the run observes, so its annotation went unchecked."""
    from passcheck.oracles.annotations import ORACLE as ANNOTATIONS

    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
  zero = Constant <value_int = 0> ()
  h = Relu (x)
  s = SequenceConstruct (h, x)
  y = SequenceAt (s, zero)
}""")
    model.graph.value_info.extend(
        [
            onnx.helper.make_tensor_value_info("h", onnx.TensorProto.FLOAT, [2]),
            onnx.helper.make_tensor_sequence_value_info("s", onnx.TensorProto.FLOAT, [2]),
        ]
    )
    assert ANNOTATIONS.observes(model) == ["s"]
    assert sorted(ANNOTATIONS.observes_shapes(model)) == ["h", "x", "y"]


def test_an_einsum_term_must_have_exactly_the_rank_of_its_input_without_an_ellipsis():
    """Mutant killed: ``n != r`` → ``n < r`` in ``spec_rules.einsum_equation``, which let a term with more
    letters than its input's rank through."""
    from passcheck.oracles.conformance import evaluate

    def violations(equation: str) -> list[str]:
        model = parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[?] y) {{ y = Einsum <equation = "{equation}"> (x) }}""")
        return [v.message for v in evaluate(model).violations if v.rule.startswith("einsum")]

    assert violations("ij->i") == [] and violations("...j->j") == []
    assert violations("ijk->i") == ["equation 'ijk->i': term 'ijk' does not match the rank 2 of input 0"]
    assert violations("i->i") == ["equation 'i->i': term 'i' does not match the rank 2 of input 0"]
