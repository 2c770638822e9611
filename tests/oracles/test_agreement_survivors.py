"""Agreement-oracle behaviours survivors of ``bench/mutation_score.py`` showed unguarded: which forms are
compared with ``common``, what the message names, and whose failed run an unchecked output blames; each
form run by onnxruntime on the same feeds."""

from __future__ import annotations

import numpy as np
from onnx import parser

from passcheck.oracles import agreement
from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, Cells
from passcheck.passes import PassOutcome
from passcheck.runtime.session import run_ort
from tests.oracles.test_contract import NEG, RELU, UNRUNNABLE

FEEDS = [{"x": np.array([-1.0, 2.0], np.float32)}, {"x": np.array([3.0, -4.0], np.float32)}]


def _cells(**forms: str) -> Cells:
    """Input cells of ``forms`` (name → model text, the first is ``common``), each run on :data:`FEEDS`."""
    runs = []
    for name, text in forms.items():
        model = parser.parse_model(text)
        ran = [run_ort(model, f) for f in FEEDS]
        runs.append(FormRun("agree", name, "input", model, PassOutcome("input", "unchanged", model), FEEDS, ran, ran))
    return Cells(runs, kind=INPUT)


def test_every_form_but_common_that_computes_other_numbers_is_flagged_whatever_its_name_sorts_as():
    """Mutants killed on ``run.form == common.form`` in ``_against_common``: ``<=`` skipped a form whose
    name sorts before ``common`` (``alt``), ``>=``, ``!=`` and ``not`` one that sorts after (``neg``); and
    the loop that prefixes each message made empty (the finding must say which form it differs from)."""
    cells = _cells(common=RELU, alt=NEG, neg=NEG, same=RELU)
    found = {r.form: agreement.ORACLE.check(r, cells) for r in cells.runs}
    assert found["common"] == [] and found["same"] == []
    for form in ("alt", "neg"):
        (f,) = found[form]
        assert (f.oracle, f.kind, f.form) == ("numeric", "wrong-result", form)
        assert f.message.startswith("differs from form 'common': "), f.message


def test_a_form_onnxruntime_cannot_run_is_left_to_the_runtime_oracle_neither_flagged_nor_unchecked_here():
    """Mutant killed: ``or`` → ``and`` in ``_against_common``: a form whose own runs fail was compared with
    ``common`` and reported as a wrong result ("fails to run"), the runtime oracle's finding twice over."""
    cells = _cells(common=RELU, custom=UNRUNNABLE)
    custom = cells.runs[1]
    assert all(r.error for r in custom.runs)  # onnxruntime has no kernel for custom.x::Twice
    assert agreement.ORACLE.check(custom, cells) == []
    assert agreement.ORACLE.unchecked(cells) == {}


def test_outputs_not_compared_because_common_fails_name_the_common_form():
    """Mutant killed: ``cells.runs[0]`` → ``cells.runs[1]`` in ``unchecked_run``: the reason named the form
    being judged (``relu``) as the one whose unoptimized run fails, where it is ``common``'s."""
    cells = _cells(common=UNRUNNABLE, relu=RELU)
    assert agreement.ORACLE.check(cells.runs[1], cells) == []
    got = agreement.ORACLE.unchecked(cells)
    assert list(got) == ["relu"], got
    (why,) = got["relu"].values()
    assert why.startswith("not compared: the unoptimized run of form 'common' fails (bindings 0, 1)"), why
