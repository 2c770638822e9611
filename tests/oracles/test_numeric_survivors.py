"""Numeric-oracle behaviours survivors of ``bench/mutation_score.py`` showed unguarded, on the values
onnxruntime really returns (NaN and ±inf from Div and Log, ZipMap's Python floats, RandomUniform draws)."""

from __future__ import annotations

import numpy as np
from onnx import parser

from passcheck.oracles._context import FormRun
from passcheck.oracles.numeric import ORACLE, compare
from passcheck.passes import PassOutcome
from passcheck.runtime.session import run_ort


def _outputs(text: str, feeds: dict) -> list:
    result = run_ort(parser.parse_model(text), feeds)
    assert not result.error, result.error
    return list(result.outputs.values())


def test_a_nan_or_an_inf_only_the_expected_side_has_is_a_mismatch_as_is_an_inf_of_the_other_sign():
    """Mutants killed: ``!=`` → ``>`` in the NaN and ±inf position tests of ``compare``: an expected NaN
    or inf where the actual value is finite, and an actual -inf where +inf is expected, passed."""
    (q,) = _outputs(
        """<ir_version: 8, opset_import: ["" : 18]>
g (float[4] a, float[4] b) => (float[4] q) { q = Div (a, b) }""",
        {"a": np.array([0, 1, -1, 2], np.float32), "b": np.array([0, 0, 0, 1], np.float32)},
    )
    nan, pos, neg, two = q
    assert np.isnan(nan) and pos == np.inf and neg == -np.inf and two == 2
    finite = np.array([1.0], np.float32)
    assert compare(q, q.copy()).ok
    c = compare(finite, q[:1])
    assert not c.ok and c.message == "NaN positions differ (0 vs 1 NaNs)", c
    for actual, expected in ((finite, q[1:2]), (q[2:3], q[1:2])):  # 1 vs +inf; -inf vs +inf
        c = compare(actual, expected)
        assert not c.ok and c.message == "±inf positions differ", (actual, expected, c)


def _zipmap(scores: list[float]) -> dict:
    (maps,) = _outputs(
        """<ir_version: 8, opset_import: ["" : 18, "ai.onnx.ml" : 3]>
g (float[1, 2] x) => (seq(map(int64, float)) m) { m = ai.onnx.ml.ZipMap <classlabels_int64s = [1, 2]> (x) }""",
        {"x": np.array([scores], np.float32)},
    )
    (m,) = maps
    assert all(type(v) is float for v in m.values())  # onnxruntime hands a map's values as Python floats
    return m


def test_a_maps_python_floats_are_compared_as_the_declared_dtype_with_its_tolerance():
    """Mutants killed in ``_leaf``: ``dtype is not None`` → ``is None`` (or negated), ``not isinstance`` →
    ``isinstance``, the ``|`` of either type union → ``&``: a map's Python float values were compared as
    float64 (rtol 1e-6), not as the float32 the graph output declares (rtol 1e-4), or the comparison raised."""
    got, want = _zipmap([1.0, 2.0]), _zipmap([1.00001, 2.0])
    assert got[1] != want[1]
    assert compare(got, want, dtype=np.dtype(np.float32)).ok
    c = compare(got, want)  # no declared dtype: each leaf's own (float64)
    assert not c.ok and c.message.startswith("key 1: 1 of 1 elements outside rtol=1e-06"), c


def test_values_that_carry_a_dtype_are_not_cast_to_the_declared_one():
    """Mutants killed: either ``and`` of ``_leaf``'s test → ``or``: an array, or a numpy float64 scalar (which
    is a Python float too), was cast to the declared dtype, hiding that its own dtype differs."""
    ints = np.array([1, 2], np.int32)
    c = compare(ints, ints.astype(np.int64), dtype=np.dtype(np.int64))
    assert not c.ok and c.message == "dtype int32 vs expected int64", c
    c = compare(np.float64(1.0), np.float32(1.0), dtype=np.dtype(np.float32))
    assert not c.ok and c.message == "dtype float64 vs expected float32", c


DRAW = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y, float[2] z) {{
  r = {r}
  y = Add (x, r)
  z = Relu (x)
}}"""


def test_an_output_drawn_on_either_side_alone_is_named_in_the_coverage():
    """Mutant killed: ``drawn(run.model) | drawn(run.output)`` → ``&`` in ``Numeric.coverage``: an output
    drawn in the input but computed from a constant in the pass output (or the reverse) was not named as
    compared by dtype and shape only."""
    draws = parser.parse_model(DRAW.format(r="RandomUniform <shape = [2], seed = 1.0> ()"))
    fixed = parser.parse_model(DRAW.format(r="Constant <value = float[2] {0.5, 0.5}> ()"))
    feeds = [{"x": np.zeros(2, np.float32)}]

    def coverage(model, output):
        run = FormRun(
            "c",
            "common",
            "ort:basic",
            model,
            PassOutcome("ort:basic", "changed", output),
            feeds,
            [run_ort(model, f) for f in feeds],
            [run_ort(output, f) for f in feeds],
        )
        return ORACLE.coverage(run)

    assert coverage(fixed, fixed) == {}
    assert coverage(draws, draws) == coverage(draws, fixed) == coverage(fixed, draws) == {"random_outputs": ["y"]}


def test_agreeing_sequences_and_exact_mismatches_report_no_error_size():
    """Mutants killed: ``Comparison``'s ``max_abs`` / ``max_rel`` defaulting to 1.0: ``_each`` starts from a
    default Comparison, so a sequence that agrees exactly reported an error of 1, as did an integer mismatch
    (whose finding's details carry them)."""
    (seq,) = _outputs(
        """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (seq(float[2]) s) { s = SequenceConstruct (x, x) }""",
        {"x": np.array([1.5, -2.0], np.float32)},
    )
    same = compare(seq, [a.copy() for a in seq])
    assert same.ok and (same.max_abs, same.max_rel) == (0.0, 0.0)
    ints = compare(np.array([1, 2], np.int64), np.array([1, 3], np.int64))
    assert not ints.ok and (ints.max_abs, ints.max_rel) == (0.0, 0.0)


def test_an_output_without_a_kernel_here_whose_input_never_ran_is_unchecked_for_the_input(tmp_path):
    """Mutant killed: ``g.error and not b.error`` → ``or`` in ``kernel_gap``: the runs of a converted output
    (Abs-1: onnxruntime has no kernel) on feeds its input fails on too were read as a kernel gap; with no
    binding where the input ran there is nothing the missing kernel kept from being compared, and the
    input's failure is what is said."""
    from passcheck.oracles.numeric import kernel_gap, unchecked
    from passcheck.passes import get_pass

    model = parser.parse_model("""<ir_version: 7, opset_import: ["" : 6]>
g (float[2, 3] x) => (float[2, 3] y) { y = Abs (x) }""")
    out = get_pass("onnx:convert-opset-down").run(model, tmp_path)
    assert out.ok and out.model.opset_import[0].version == 5

    def run_on(x: np.ndarray) -> FormRun:
        feeds = [{"x": x}]
        runs, baseline = [run_ort(out.model, f) for f in feeds], [run_ort(model, f) for f in feeds]
        assert "Abs(1)" in runs[0].error
        return FormRun("c", "common", out.pass_id, model, out, feeds, baseline, runs)

    fits = run_on(np.ones((2, 3), np.float32))
    assert "no kernel for Abs(1)" in kernel_gap(fits)
    wrong_type = run_on(np.ones((2, 3), np.float64))  # the input rejects it too (tensor(double) for float)
    assert wrong_type.baseline[0].error and kernel_gap(wrong_type) is None
    (why,) = unchecked(wrong_type).values()
    assert why.startswith("not compared: the unoptimized run of form 'common' fails (binding 0): "), why


def test_tensors_of_another_shape_differ_even_where_their_elements_broadcast():
    """Mutant killed: ``Comparison(False, "shape …")`` → ``True`` in ``compare``: a (1, 3) output against an
    expected (3,) one (same values: NumPy would broadcast them) passed."""
    row, flat = _outputs(
        """<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[1, 3] r, float[3] f) <int64[1] axes = {0}> {
  r = Unsqueeze (x, axes)
  f = Identity (x)
}""",
        {"x": np.array([1.0, 2.0, 3.0], np.float32)},
    )
    c = compare(row, flat)
    assert not c.ok and c.message == "shape [1, 3] vs expected [3]", c
