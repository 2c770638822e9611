"""Reshape ↔ Reshape → Reshape chain (issue 15): 0 entries, allowzero, zero-size data."""

from __future__ import annotations

from passcheck.cases import registry
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import feeds, named

RESHAPES = """g (float[N, 3, 4] x, float[2, 0, 3] e) => (float[N, 12] a, float[N, 12] b, float[3, 0, 2] c) {
    s1 = Constant<value = int64[2] {0, -1}>()
    a = Reshape(x, s1)
    s2 = Constant<value = int64[2] {-1, 12}>()
    b = Reshape(x, s2)
    s3 = Constant<value = int64[3] {3, 0, 2}>()
    c = Reshape<allowzero = 1>(e, s3)
}"""


def _chain(m, out):
    by_out = {n.output[0]: n for n in m.graph.node}
    second = by_out[out]
    first = by_out[second.input[0]]
    return first, second


def test_split_goes_through_a_flat_shape_unless_a_zero_copies_a_dim():
    m = named(RESHAPES, opset=14)
    mutant, applied = REWRITES["reshape-split"].apply(m)
    assert list(applied.nodes) == ["n1", "n3", "n5"]
    verify_equivalent(m, mutant, feeds(m), "reshape-split")
    consts = {
        n.output[0]: list(n.attribute[0].t.int64_data) or n.attribute[0].t.raw_data
        for n in mutant.graph.node
        if n.op_type == "Constant"
    }
    first, second = _chain(mutant, "a")
    assert first.input == ["x", "s1"] and second.input[1] == "s1"  # the 0 copies N: reshaped to s1 twice
    first, second = _chain(mutant, "b")
    assert consts[first.input[1]] == [-1] and second.input[1] == "s2"
    first, second = _chain(mutant, "c")  # allowzero=1 on zero-size data: the 0 is literal, both keep allowzero
    assert consts[first.input[1]] == [-1] and [a.name for a in first.attribute] == [
        a.name for a in second.attribute
    ] == ["allowzero"]


def test_merge_undoes_the_split_where_no_zero_copies():
    m = named(RESHAPES, opset=14)
    split, _ = REWRITES["reshape-split"].apply(m)
    merged, applied = REWRITES["reshape-merge"].apply(split)
    assert list(applied.nodes) == ["n3", "n5"]  # not n1: its 0 would copy the intermediate's dim
    verify_equivalent(m, merged, feeds(m), "reshape-merge")
    assert [n.op_type for n in merged.graph.node].count("Reshape") == 4
    assert not [n for n in merged.graph.node if n.name.endswith("flat_shape_node")]  # unread shape Constants removed


def test_merge_keeps_an_intermediate_that_is_read_elsewhere():
    m = named(
        """g (float[N, 3, 4] x) => (float[N, 12] a, float[N, 3, 4] b) {
        s = Constant<value = int64[2] {-1, 12}>()
        a = Reshape(x, s)
        t = Constant<value = int64[3] {-1, 3, 4}>()
        b = Reshape(a, t)
    }""",
        opset=13,
    )
    assert REWRITES["reshape-merge"].apply(m) is None


def test_only_selects_one_reshape():
    m = named(RESHAPES, opset=14)
    assert REWRITES["reshape-split"].edit(m, frozenset({"n3"})) == ["n3"]
    assert [n.op_type for n in m.graph.node].count("Reshape") == 4


def test_on_a_library_case():
    m = registry().get("shape/dynamic-1-3-reshape").forms["common"].build()
    mutant, _ = REWRITES["reshape-split"].apply(m)
    verify_equivalent(m, mutant, feeds(m), "reshape-split")
