"""A form the installed onnxruntime has no kernel for is an environment fact (issue 30): its cells
are ``unavailable`` with the reason, never a ``rejected`` or parity finding, while the form that runs
is judged as usual. The first form is always judged: a model that does not run at all stays a finding."""

from __future__ import annotations

from onnx import parser

from passcheck.api import check_model

FLOAT = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { y = Cosh (x) }""")
# The same computation in float64: valid ONNX (Cosh takes tensor(double)); onnxruntime registers Cosh for float only.
DOUBLE = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { d = Cast <to = 11> (x)  c = Cosh (d)  y = Cast <to = 1> (c) }""")


def test_a_form_without_a_kernel_here_is_unavailable_not_a_finding():
    report = check_model(
        FLOAT, ["ort:basic", "onnx:infer-shapes"], forms={"float64": DOUBLE}, name="env/cosh", allow_unavailable=True
    )  # named passes that do not run on a form are unchecked without it (tests/cli/test_named_pass_not_run.py)
    f64 = [c for c in report.cells if c.form == "float64"]
    assert {c.pass_id for c in f64} == {"input", "ort:basic", "onnx:infer-shapes"}
    for c in f64:
        assert c.status == "unavailable" and not c.findings, c
        assert "no CPU kernel for Cosh(9)" in c.error and "environment fact" in c.error
    common = [c for c in report.cells if c.form == "common"]
    assert {c.verdict for c in common} == {"ok"} and report.exit_code == 0


def test_a_first_form_without_a_kernel_is_still_judged():
    only = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (double[2] x) => (double[2] y) { y = Cosh (x) }""")
    report = check_model(only, ["ort:basic"], name="env/cosh-double")
    (rejected,) = [f for f in report.findings if f.pass_id == "input"]
    assert rejected.oracle == "runtime" and rejected.kind == "rejected" and report.exit_code == 1


# GRU in float and in float64: onnxruntime registers its CPU kernel for both (deep_cpu_gru.cc), so the session is
# created, and the kernel's Compute refuses double when it runs ("GRU operator does not support double yet").
GRU_FLOAT = parser.parse_model("""<ir_version: 8, opset_import: ["" : 14]>
g (float[2, 1, 3] x) => (float[2, 1, 1, 4] y) <float[1, 12, 3] w, float[1, 12, 4] r> {
  y = GRU <hidden_size = 4> (x, w, r) }""")
GRU_DOUBLE = parser.parse_model("""<ir_version: 8, opset_import: ["" : 14]>
g (float[2, 1, 3] x) => (float[2, 1, 1, 4] y) <float[1, 12, 3] w, float[1, 12, 4] r> {
  xd = Cast <to = 11> (x)  wd = Cast <to = 11> (w)  rd = Cast <to = 11> (r)
  yd = GRU <hidden_size = 4> (xd, wd, rd)  y = Cast <to = 1> (yd) }""")


def _weights(model):
    import numpy as np
    from onnx import numpy_helper

    rng = np.random.default_rng(0)
    for name, shape in (("w", (1, 12, 3)), ("r", (1, 12, 4))):
        model.graph.initializer.append(numpy_helper.from_array(rng.uniform(-1, 1, shape).astype("float32"), name))
    return model


def test_a_kernel_refusing_an_element_type_when_it_runs_is_unavailable_not_a_finding():
    report = check_model(
        _weights(GRU_FLOAT),
        ["ort:basic"],
        forms={"float64": _weights(GRU_DOUBLE)},
        name="env/gru",
        allow_unavailable=True,
    )
    f64 = [c for c in report.cells if c.form == "float64"]
    assert f64 and all(c.status == "unavailable" and not c.findings for c in f64), f64
    assert all("a CPU kernel for GRU that does not compute double" in c.error for c in f64)
    assert {c.verdict for c in report.cells if c.form == "common"} == {"ok"} and report.exit_code == 0
