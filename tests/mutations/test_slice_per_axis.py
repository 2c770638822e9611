"""slice-per-axis (M266): a Slice of several axes as one Slice per axis, chained."""

from __future__ import annotations

from passcheck.mutations import REWRITES, verify_equivalent

from ._models import feeds, named

SLICES = """g (float[N, 6, 8] x, int32[4, 5] w) => (float[N, 3, 2] y, float[N, 6, 4] z, int32[2, 2] v) {
    s1 = Constant<value = int64[2] {5, -1}>()
    e1 = Constant<value = int64[2] {-9223372036854775807, 2}>()
    a1 = Constant<value = int64[2] {1, -1}>()
    t1 = Constant<value = int64[2] {-2, -3}>()
    y = Slice(x, s1, e1, a1, t1)
    s2 = Constant<value = int64[1] {2}>()
    e2 = Constant<value = int64[1] {100}>()
    a2 = Constant<value = int64[1] {2}>()
    z = Slice(x, s2, e2, a2)
    s3 = Constant<value = int32[2] {1, 0}>()
    e3 = Constant<value = int32[2] {3, 5}>()
    t3 = Constant<value = int32[2] {1, 3}>()
    v = Slice(w, s3, e3, , t3)
}"""


def test_split_computes_the_same_one_axis_at_a_time():
    m = named(SLICES, opset=13)
    mutant, applied = REWRITES["slice-per-axis"].apply(m)
    assert list(applied.nodes) == ["n4", "n12"]  # n8 slices one axis
    verify_equivalent(m, mutant, feeds(m), "slice-per-axis")  # checker (full), strict inference, onnxruntime
    by_out = {n.output[0]: n for n in mutant.graph.node}
    outer = by_out["y"]
    inner = by_out[outer.input[0]]
    assert inner.op_type == "Slice" and inner.input[0] == "x" and outer.name == "n4"
    assert not {"s1", "e1", "a1", "t1", "s3", "e3", "t3"} & set(by_out)  # the old vectors, unread, are gone


def test_only_selects_one_slice():
    m = named(SLICES, opset=13)
    assert REWRITES["slice-per-axis"].edit(m, frozenset({"n12"})) == ["n12"]
    assert [n.op_type for n in m.graph.node].count("Slice") == 4


def test_a_computed_parameter_is_left_alone():
    m = named(
        """g (float[4, 6] x, int64[2] s) => (float[?, ?] y) {
        e = Constant<value = int64[2] {3, 5}>()
        y = Slice(x, s, e)
    }""",
        opset=13,
    )
    assert REWRITES["slice-per-axis"].apply(m) is None
