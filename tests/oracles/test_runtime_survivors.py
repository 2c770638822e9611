"""Runtime-oracle behaviours survivors of ``bench/mutation_score.py`` showed unguarded, on real
onnxruntime runs of forms (pass ``input``) and outputs a source states."""

from __future__ import annotations

import numpy as np
from onnx import parser

from passcheck.oracles._context import Expected, FormRun
from passcheck.oracles._contract import INPUT, Cells
from passcheck.oracles.runtime import ORACLE as RUNTIME
from passcheck.passes import PassOutcome
from passcheck.runtime.session import run_ort

RESHAPE = """<ir_version: 8, opset_import: ["" : 18]>
g (float[6] x) => (float[?, ?] y) <int64[2] shape = {{{shape}}}> {{ y = Reshape (x, shape) }}"""


def _form(name: str, text: str, feeds: list[dict], expected: Expected | None = None) -> FormRun:
    model = parser.parse_model(text)
    runs = [run_ort(model, f) for f in feeds]
    return FormRun(
        "c", name, "input", model, PassOutcome("input", "unchanged", model), feeds, runs, runs, expected=expected
    )


X = [{"x": np.arange(6, dtype=np.float32)}]


def test_a_form_onnxruntime_cannot_run_names_the_common_form_only_when_that_one_runs():
    """Mutants killed: ``run.form != common.form and …`` → ``or`` and ``!=`` → ``>`` in ``check``: a form whose
    name sorts before ``common`` lost the hint that ``common`` runs on the same feeds, and a form failing beside
    a failing ``common`` was told ``common`` runs."""
    runs, fails = _form("common", RESHAPE.format(shape="2, 3"), X), _form("bad", RESHAPE.format(shape="4, 4"), X)
    assert not runs.baseline[0].error and fails.baseline[0].error
    (f,) = RUNTIME.check(fails, Cells([runs, fails], INPUT))
    assert (
        f.kind == "rejected"
        and "onnxruntime cannot run this form (form 'common' runs on the same feeds): " in f.message
    )
    common_fails = _form("common", RESHAPE.format(shape="5, 5"), X)
    (f,) = RUNTIME.check(fails, Cells([common_fails, fails], INPUT))
    assert "'common' runs" not in f.message and "on synthesized feeds" in f.message, f.message


RELU = """<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) { y = Relu (x) }"""
FEEDS = [{"x": np.array(v, np.float32)} for v in ([1, -2, 3], [-1, 2, -3], [4, 5, -6])]


def test_a_departure_from_a_stated_output_is_found_in_the_bindings_the_source_states():
    """Mutants killed in ``departures``: either loop made empty, ``i < len(exp.outputs)`` → ``<=`` / ``!=`` (a
    binding the source states nothing for indexed past its list) and ``not c.ok`` negated or dropped."""
    stated = [{"y": np.array([1, 0, 3], np.float32)}, {"y": np.array([9, 9, 9], np.float32)}]  # run 1 departs
    (f,) = RUNTIME.check(_form("common", RELU, FEEDS, Expected(stated, "the source", 0.0, 0.0)), Cells([], INPUT))
    assert (f.kind, f.details["binding"], f.details["output"]) == ("wrong-result", 1, "y")
    assert f.message.startswith(
        "onnxruntime's unoptimized run departs from the expected output of the source: output 'y' (run 1): "
    ), f.message
    agrees = Expected(stated[:1], "the source", 0.0, 0.0)  # run 0 only: it agrees; runs 1 and 2 unstated
    assert RUNTIME.check(_form("common", RELU, FEEDS, agrees), Cells([], INPUT)) == []
