"""The stamp moved below schema versions that only added what no node uses (round 16a, M281)."""

from __future__ import annotations

import numpy as np

from passcheck.cases import registry
from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations._opsets import schema
from passcheck.mutations.opset_floor import additions_only

from ._models import W, feeds, named

QDQ_GEMM = """g (float[2, 4] x) => (float[2, 3] y) {
    xq = QuantizeLinear(x, xs, xz)
    xd = DequantizeLinear(xq, xs, xz)
    c = Gemm(xd, w, b)
    cq = QuantizeLinear(c, ys, yz)
    y = DequantizeLinear(cq, ys, yz)
}"""


def _qdq_gemm(opset: int, scale: float | np.ndarray = 0.05):
    inits = [
        tensor("xs", np.asarray(scale, np.float32)),
        tensor("xz", np.full(np.shape(scale), 128, np.uint8)),
        tensor("w", np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)),
        tensor("b", np.array([0.5, -0.25, 1.0], np.float32)),
        tensor("ys", np.float32(0.1)),
        tensor("yz", np.uint8(128)),
    ]
    return named(QDQ_GEMM, opset=opset, initializers=inits)


def _below(m):
    got = REWRITES["opset-stamp-below"].apply(m)
    return got and got[0].opset_import[0].version


def test_a_step_is_taken_only_when_it_adds_something_and_changes_nothing():
    assert additions_only(schema("Gemm", 9), schema("Gemm", 11))  # C turned optional
    assert additions_only(schema("QuantizeLinear", 10), schema("QuantizeLinear", 13))  # axis added
    assert additions_only(schema("Relu", 6), schema("Relu", 13))  # bfloat16 added
    assert not additions_only(schema("Conv", 1), schema("Conv", 11))  # one signature, auto_pad's meaning changed
    assert not additions_only(schema("Softmax", 11), schema("Softmax", 13))  # axis default changed
    assert not additions_only(schema("Clip", 6), schema("Clip", 11))  # min / max moved to inputs
    assert not additions_only(schema("QuantizeLinear", 13), schema("QuantizeLinear", 19))  # y_scale's type changed


def test_a_qdq_gemm_goes_below_the_qdq_versions_and_means_the_same():
    m = _qdq_gemm(13)
    assert REWRITES["opset-stamp-down"].apply(m) is None  # QuantizeLinear-13 is the newest schema
    lower, applied = REWRITES["opset-stamp-below"].apply(m)
    assert list(applied.nodes) == ["opset_import"] and lower.opset_import[0].version == 10
    verify_equivalent(m, lower, feeds(m), "opset-stamp-below")  # real onnxruntime sessions, then the checker
    assert REWRITES["opset-stamp-below"].apply(lower) is None  # QuantizeLinear has no version below 10


def test_a_per_axis_scale_keeps_the_version_that_added_axis():
    m = _qdq_gemm(13, scale=np.full(1, 0.05, np.float32))  # a 1-D scale: QuantizeLinear-13's axis reads it
    assert _below(m) in (None, 13)


def test_a_change_of_meaning_under_one_signature_stops_the_stamp():
    m = named(
        """g (float[N, 3, 5, 5] x) => (float[N, 2, 3, 3] y) { a = Conv(x, w)  y = Relu(a) }""",
        opset=17,
        initializers=[W],
    )
    lower, _ = REWRITES["opset-stamp-below"].apply(m)
    assert lower.opset_import[0].version == 11  # Relu would go to 6; Conv-1 -> 11 is a SAME-signature change
    verify_equivalent(m, lower, feeds(m), "opset-stamp-below")


def test_a_node_using_an_addition_or_a_non_scalar_operand_keeps_it():
    sliced = named("""g (float[2, 3, 4] x) => (int64[2] y) { y = Shape <start = 1> (x) }""", opset=18)
    assert _below(sliced) is None  # Shape-15 added start, which the node sets
    reshaped = named(
        """g (float[2, 6] x) => (float[3, 4] y) { y = Reshape(x, s) }""",
        opset=17,
        initializers=[tensor("s", np.array([3, 4], np.int64))],
    )
    assert _below(reshaped) is None  # Reshape-14 added allowzero; `s` is not a scalar


def test_a_gemm_without_c_stops_at_the_version_that_made_c_optional():
    m = registry().get("pattern-ort-qdq/matmul-int8").forms["gemm"].build()  # Gemm(xd, wd): no C
    lower = REWRITES["opset-stamp-below"].apply(m)[0]
    assert lower.opset_import[0].version == 11  # Gemm-9 requires C
    verify_equivalent(m, lower, feeds(m), "opset-stamp-below")


# The stamp raised over versions that only add (round 17a, M315).

NOT_WHERE = """g (bool[2, 3] b, float[2, 3] x, float[2, 3] z) => (float[2, 3] y) { nb = Not(b)  y = Where(nb, x, z) }"""


def _above(m):
    got = REWRITES["opset-stamp-above"].apply(m)
    return got and got[0]


def test_the_stamp_goes_above_additive_versions_and_means_the_same():
    import onnx

    m = named(NOT_WHERE, opset=13)  # IR 7: its opsets end at 14
    assert REWRITES["opset-stamp-up"].apply(m)[0].opset_import[0].version == 14  # Where-16 stops opset-stamp-up
    higher = _above(m)
    assert higher.opset_import[0].version == 21 and higher.ir_version == 10  # the IR version follows the stamp
    assert onnx.defs.get_schema("Where", 21).since_version == 16  # the node now resolves to Where-16
    verify_equivalent(m, higher, feeds(m), "opset-stamp-above")  # real onnxruntime sessions, then the checker
    assert _above(higher) is None


def test_the_stamp_stops_below_a_change_of_meaning_or_a_deprecated_op():
    softmax = named("""g (float[2, 3] x) => (float[2, 3] y) { y = Softmax(x) }""", opset=11)
    assert _above(softmax).opset_import[0].version == 12  # Softmax-13 changed axis's default (IR 6 → 7 for 12)
    padded = named(
        """g (float[1, 2, 4] x) => (float[1, 2, 6] y) { y = Pad(x, p) }""",
        opset=13,
        initializers=[tensor("p", np.array([0, 0, 1, 0, 0, 1], np.int64))],
    )
    higher = _above(padded)
    assert higher.opset_import[0].version == 18  # Pad-18 added `axes`; Pad-19 gave `mode` a value: no new field
    verify_equivalent(padded, higher, feeds(padded), "opset-stamp-above")
    upsample = named(
        """g (float[1, 1, 2, 2] x) => (float[1, 1, 4, 4] y) { y = Upsample(x, s) }""",
        opset=9,
        initializers=[tensor("s", np.array([1, 1, 2, 2], np.float32))],
    )
    assert _above(upsample) is None  # Upsample is deprecated from opset 10
