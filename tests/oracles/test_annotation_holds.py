"""``passcheck.oracles.annotations``: what a run that failed everywhere reports as unchecked, and which
annotations ``holds`` vouches for (an unobserved value, a symbol conflict between other values), on real
onnxruntime runs; mutation showed the suite blind there (bench/results/mutation.jsonl)."""

from __future__ import annotations

import numpy as np
from onnx import parser

from passcheck.oracles import annotations
from passcheck.oracles._context import FormRun
from passcheck.passes._base import PassOutcome
from passcheck.runtime.session import run_ort

HEAD = '<ir_version: 8, opset_import: ["" : 17]> '
#: y = Neg(Relu(x)), with the intermediate t annotated (value_info)
CHAIN = HEAD + "g (float[2, 3] x) => (float[2, 3] y) <float[2, 3] t> { t = Relu(x)\n y = Neg(t) }"


def _run(text: str, feeds: list[dict]) -> FormRun:
    model = parser.parse_model(text)
    runs = [run_ort(model, f) for f in feeds]
    return FormRun("c", "f", "p", model, PassOutcome("p", "changed", model), feeds, runs, runs)


def test_an_output_that_failed_in_every_run_leaves_each_annotated_value_unchecked_by_its_key():
    """Mutant killed: ``step[0]`` → ``step[1]`` (the reasons keyed by a value's bare name, not by its
    key: a branch's value reads ``If#0.then_branch::t``, as everywhere else annotations are reported)."""
    branch = (
        HEAD
        + """g (bool c, float[2, 3] x) => (float[2, 3] y) {
      y = If (c) <then_branch = g1 () => (float[2, 3] t) { t = Relu(x) },
                  else_branch = g2 () => (float[2, 3] e) { e = Neg(x) }>
    }"""
    )
    cov = annotations.coverage(_run(branch, [{}, {}]))  # no feeds: both runs fail
    assert (cov["annotated"], cov["checked"], cov["unchecked"]) == (5, 0, 5)
    assert sorted(cov["reasons"]) == ["If#0.else_branch::e", "If#0.then_branch::t", "c", "x", "y"]
    assert cov["reasons"]["y"].startswith("the model did not run (binding 0: ")


def test_an_output_no_run_was_made_of_reports_no_coverage():
    """Mutant killed: ``run.output is None or not failed`` → ``and``: an output with no run at all (no
    feeds) is not an output whose runs failed."""
    assert annotations.coverage(_run(CHAIN, [])) == {}


def test_an_unobserved_value_s_annotation_does_not_hold():
    """Mutants killed: ``key in report.unobserved or key in report.unchecked`` → ``and`` and its
    ``return False`` → ``True``: t is annotated but not produced by a run that fetched the outputs only."""
    run = _run(CHAIN, [{"x": np.ones((2, 3), np.float32)}])
    assert annotations.unchecked(run) == {}
    assert annotations.coverage(run)["reasons"] == {"t": "not produced in this run"}
    assert annotations.holds(run, "y") and not annotations.holds(run, "t")


def test_a_symbol_conflict_between_other_values_leaves_an_annotation_holding():
    """Mutant killed: ``o.value == key`` → ``<=``: the conflict of N between a and b (sizes 2 and 3)
    made every value whose name sorts after theirs fail to hold."""
    run = _run(
        HEAD + "g (float[N] a, float[N] b) => (float[2] z) { z = Relu(a) }",
        [{"a": np.ones(2, np.float32), "b": np.ones(3, np.float32)}],
    )
    assert not annotations.holds(run, "a") and not annotations.holds(run, "b")
    assert annotations.holds(run, "z")
