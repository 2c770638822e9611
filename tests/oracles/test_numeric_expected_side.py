"""Which side of a numeric mismatch matches the outputs a source states (``numeric.check`` with
``FormRun.expected``): real onnxruntime runs of an input (Relu) and of a stand-in pass output
that computes something else (Abs), compared with stated outputs of either, both or neither."""

from __future__ import annotations

import numpy as np
from onnx import parser

from passcheck.oracles._context import Expected, FormRun
from passcheck.oracles.numeric import check
from passcheck.passes import PassOutcome
from passcheck.runtime.session import run_ort


def _model(op: str):
    return parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) {{ y = {op} (x) }}""")


FEEDS = [{"x": np.array([1, 2, 3], np.float32)}, {"x": np.array([-1, 2, -3], np.float32)}]  # binding 1 differs


def _check(expected: list[dict], *, pass_id: str = "ort:basic", tol: float = 0.0):
    model, output = _model("Relu"), _model("Abs")
    run = FormRun(
        "c",
        "common",
        pass_id,
        model,
        PassOutcome(pass_id, "changed", output),
        FEEDS,
        [run_ort(model, f) for f in FEEDS],
        [run_ort(output, f) for f in FEEDS],
        rtol=0.0,
        atol=0.0,
        expected=Expected(expected, "the source", tol, tol),
    )
    return check(run)


RELU = {"y": np.array([0, 2, 0], np.float32)}
ABS = {"y": np.array([1, 2, 3], np.float32)}
SAID = "; expected output of the source (rtol=0, atol=0): "


def test_the_unoptimized_run_matching_the_stated_output_blames_the_pass():
    (f,) = _check([ABS, RELU])
    assert f.details["matches_expected"] == "unoptimized run" and f.details["binding"] == 1
    assert f.message.endswith(SAID + "the unoptimized run matches it, the pass output does not"), f.message


def test_the_pass_output_matching_the_stated_output_is_no_finding_of_the_pass():
    assert _check([ABS, ABS]) == []


def test_neither_or_both_matching_the_stated_output_is_said():
    (f,) = _check([ABS, {"y": np.array([9, 9, 9], np.float32)}])
    assert f.details["matches_expected"] == "neither" and f.message.endswith(SAID + "neither matches it")
    (f,) = _check([ABS, RELU], tol=10.0)
    assert f.details["matches_expected"] == "both" and f.message.endswith("(rtol=10, atol=10): both match")


def test_in_an_input_cell_the_sides_are_this_form_and_the_other():
    (f,) = _check([ABS, RELU], pass_id="input")
    assert f.message.endswith(SAID + "the other matches it, this form does not"), f.message


def test_a_binding_or_output_the_source_states_nothing_for_is_compared_without_a_side():
    for expected in ([], [ABS], [ABS, {"z": RELU["y"]}]):
        (f,) = _check(expected)
        assert "matches_expected" not in f.details and "expected output" not in f.message, f
