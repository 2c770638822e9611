"""concat-nested (M265): a Concat of three inputs or more as a Concat of its first two, then the rest."""

from __future__ import annotations

from passcheck.cases import registry
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import feeds, named

CONCATS = """g (float[N, 2] a, float[N, 3] b, int64[2] s, int64[1] t) => (float[N, 7] y, int64[5] v, float[N, 5] z) {
    y = Concat<axis = -1>(a, b, a)
    v = Concat<axis = 0>(s, t, s)
    z = Concat<axis = 1>(a, b)
}"""


def test_nest_computes_the_same_and_two_inputs_are_left_alone():
    m = named(CONCATS, opset=13)
    mutant, applied = REWRITES["concat-nested"].apply(m)
    assert list(applied.nodes) == ["n0", "n1"]  # n2 has two inputs
    verify_equivalent(m, mutant, feeds(m), "concat-nested")  # checker (full), strict inference, onnxruntime
    by_out = {n.output[0]: n for n in mutant.graph.node}
    outer = by_out["y"]
    inner = by_out[outer.input[0]]
    assert list(inner.input) == ["a", "b"] and list(outer.input[1:]) == ["a"]
    assert [(a.name, a.i) for a in inner.attribute] == [(a.name, a.i) for a in outer.attribute] == [("axis", -1)]


def test_only_selects_one_concat():
    m = named(CONCATS, opset=13)
    assert REWRITES["concat-nested"].edit(m, frozenset({"n1"})) == ["n1"]
    assert [n.op_type for n in m.graph.node].count("Concat") == 4


def test_an_empty_slot_is_left_alone():
    m = named(CONCATS, opset=13)
    m.graph.node[0].input[1] = ""
    assert REWRITES["concat-nested"].edit(m, frozenset({"n0"})) == []


def test_on_a_library_shape_vector():
    m = registry().get("pattern-ort-fusion/reshape-from-shape").forms["common"].build()
    mutant, applied = REWRITES["concat-nested"].apply(m)
    assert applied.nodes
    verify_equivalent(m, mutant, feeds(m), "concat-nested")
