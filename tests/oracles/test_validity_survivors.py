"""Validity-oracle behaviours survivors of ``bench/mutation_score.py`` showed unguarded, with the real
onnx checker, onnxruntime and onnx's reference evaluator."""

from __future__ import annotations

import numpy as np
from onnx import helper, parser

from passcheck.oracles import validity
from passcheck.oracles._context import FormRun
from passcheck.passes import PassOutcome, get_pass
from passcheck.runtime.session import run_ort
from tests.oracles.test_ort_own_ops import RMS


def test_a_form_the_checker_rejects_says_where_the_reference_evaluator_differs_from_onnxruntime():
    """Mutants killed in ``_reference_opinion``: the loop over onnxruntime's outputs made empty, and
    ``name in ref.outputs`` negated: both said "agrees with onnxruntime" of a form whose two runs differ
    (RandomUniform: each runtime's own generator, seeded)."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
  r = RandomUniform <shape = [2], seed = 1.0> ()
  y = Add (r, x)
}""")
    model.graph.value_info.append(helper.make_tensor_value_info("r", 1, [3]))  # shape inference: 2 vs 3
    assert validity.checker_error(model)
    feeds = [{"x": np.zeros(2, np.float32)}]
    runs = [run_ort(model, f) for f in feeds]
    assert not runs[0].error  # onnxruntime merges the annotation leniently and runs
    run = FormRun("c", "rare", "input", model, PassOutcome("input", "unchanged", model), feeds, runs, runs)
    (f,) = validity.check(run)
    assert f.kind == "validity-disagreement"
    assert f.details["reference"].startswith("differs on 'y': 2 of 2 elements outside"), f.details["reference"]


def test_an_onnxruntime_output_valid_without_its_own_ops_is_no_finding_even_when_its_input_is_invalid(tmp_path):
    """Mutant killed: ``err is None or checker(run.model) == err`` → ``and`` in ``check``: an ``ort:extended``
    output that the checker accepts once onnxruntime's own op (SimplifiedLayerNormalization in ai.onnx) is
    set aside was reported as invalid (with no error) because its input, which the checker rejects for
    another reason (an annotation of a value the fusion removed), is not valid either."""
    model = parser.parse_model(RMS)
    model.graph.value_info.append(helper.make_tensor_value_info("p", 1, [5, 5]))  # Pow's output is [2, 8]
    assert "Inferred shape and existing shape differ" in validity.checker_error(model)
    out = get_pass("ort:extended").run(model, tmp_path)
    assert [n.op_type for n in out.model.graph.node] == ["SimplifiedLayerNormalization"]
    assert "No Op registered for SimplifiedLayerNormalization" in validity.checker_error(out.model)
    assert validity.check(FormRun("c", "f", "ort:extended", model, out, [], [], [])) == []


def test_only_an_output_onnxruntime_saved_or_wrote_for_itself_gets_the_note_on_its_own_ops():
    """Mutant killed: the first ``or`` of ``notes`` → ``and``: a failed pass (no output) raised, and the output
    of a pass that is not onnxruntime's holding its ops (here the same graph as an ``ort:extended`` output) was
    noted as judged without them."""
    from tests.oracles.test_ort_own_ops import _fused

    fused, model = _fused(), parser.parse_model(RMS)
    assert validity.notes(
        FormRun("c", "f", "ort:extended", model, PassOutcome("ort:extended", "changed", fused), [], [], [])
    )
    assert (
        validity.notes(
            FormRun(
                "c", "f", "onnx:infer-shapes", model, PassOutcome("onnx:infer-shapes", "changed", fused), [], [], []
            )
        )
        == {}
    )
    failed = PassOutcome("ort:extended", "crashed", None, error="boom")
    assert validity.notes(FormRun("c", "f", "ort:extended", model, failed, [], [], [])) == {}


def _chain(n: int):
    """A Relu chain of ``n`` nodes: the full checker takes about a second in process for 100,000."""
    nodes = [helper.make_node("Relu", [f"v{i}"], [f"v{i + 1}"]) for i in range(n)]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("v0", 1, [2])], [helper.make_tensor_value_info(f"v{n}", 1, [2])]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def test_a_checker_out_of_time_leaves_validity_unchecked_naming_what_it_was_judging():
    """Mutants killed in ``unchecked``: ``run.output is None`` / ``run.checker is None`` negated or joined by
    ``and``, the ``pass_id != "input"`` test inverted, the loop made empty: a real time limit of the isolation
    worker's checker (:class:`CheckerTimedOut`) on a pass output or a form went unsaid, was said of the wrong
    model, or a run without a worker raised."""
    from passcheck.passes.isolation import IsolatedExecutor

    big, small = _chain(100_000), _chain(1)
    with IsolatedExecutor(timeout=0.3) as ex:
        checker = validity.Checker(ex)
        timed_out = checker(big)
        assert isinstance(timed_out, validity.CheckerTimedOut), timed_out
        why = f"not checked: {timed_out} on the {{}} (a time limit, not a verdict; raise --timeout)"
        out = PassOutcome("onnx:infer-shapes", "changed", big)
        run = FormRun("c", "f", "onnx:infer-shapes", small, out, [], [], [], checker=checker)
        assert validity.unchecked(run) == {"validity": why.format("output")}
        form = FormRun("c", "f", "input", big, PassOutcome("input", "unchanged", big), [], [], [], checker=checker)
        assert validity.unchecked(form) == {"validity": why.format("form")}
    in_process = FormRun("c", "f", "onnx:infer-shapes", small, out, [], [], [])  # no worker: no time limit
    assert validity.unchecked(in_process) == {}
    failed = PassOutcome("onnx:infer-shapes", "crashed", None, error="boom")
    assert validity.unchecked(FormRun("c", "f", "onnx:infer-shapes", small, failed, [], [], [], checker=checker)) == {}


def test_a_question_sent_inside_a_run_job_is_asked_once_and_kept_as_the_full_checkers_answer():
    """Mutants killed in ``Checker.pending``: ``self._call is None`` inverted (nothing ever sent with a run),
    the full-check key's ``True`` → ``False`` (the full checker's answer kept as the plain checker's), and
    the test of what is known negated, or its ``and`` / ``or`` swapped, or ``self._kept is not None`` inverted
    (a question asked again though this checker or the executor's kept verdicts have its answer)."""
    from passcheck.passes.isolation import IsolatedExecutor

    model = parser.parse_model(RMS)
    model.graph.value_info.append(helper.make_tensor_value_info("p", 1, [5, 5]))  # strict shape inference rejects
    full, plain = validity.checker_error(model), validity.plain_checker_error(model)
    assert full and plain is None
    with IsolatedExecutor() as ex:
        checker = validity.Checker(ex)
        fn, answer = checker.pending(model)
        assert fn is validity.checker_and_inference
        answer(fn(model))  # what the run job does in the worker, beside the runs
        assert checker.pending(model) is None  # known now: nothing more to send
        assert validity.Checker(ex).pending(model) is None  # kept by the executor for a later subject's checker
        asked, real = [], ex.run
        ex.run = lambda *a: asked.append(1) or real(*a)
        assert checker(model) == full and checker.inference_died(model) is None and asked == []
        assert checker(model, full_check=False) is None and len(asked) == 1  # another question: asked


def test_a_checker_on_a_worker_that_keeps_no_verdicts_of_its_own_still_answers_each_question():
    """Mutants killed: ``self._kept is not None`` → ``is None`` in ``Checker.pending`` and ``Checker._paired``: on
    an executor with a worker but no kept verdicts (a bare :class:`passcheck.execution.Worker`) the check of
    what is known looked into None and raised."""
    from passcheck.execution import Worker

    model = parser.parse_model(RMS)
    model.graph.value_info.append(helper.make_tensor_value_info("p", 1, [5, 5]))
    with Worker() as worker:
        checker = validity.Checker(worker)
        assert checker.pending(model) is not None
        assert checker(model) == validity.checker_error(model)  # asked with shape inference, in one job
        assert checker.inference_died(model) is None
        assert checker(model, full_check=False) is None
        assert checker.pending(model) is None
