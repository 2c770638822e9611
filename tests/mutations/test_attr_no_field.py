"""A zero-valued scalar attribute ↔ the same attribute with no value field (the proto3 spelling)."""

from __future__ import annotations

import onnx

from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.equivalence import checker_error

from ._models import feeds, named

ZEROS = """g (float[2, 3] x, float[2, 3] x2) => (float[4, 3] c, float[2, 3] s, float[2, 3] l, float[3] r) {
    c = Concat<axis = 0>(x, x2)
    s = Softmax<axis = -1>(x)
    l = LeakyRelu<alpha = 0.0>(x)
    r = ReduceMax<axes = [0], keepdims = 0>(x)
}"""


def test_zero_valued_attributes_lose_their_value_field_and_pass_the_gate():
    m = named(ZEROS, opset=13)
    mutant, applied = REWRITES["attribute-zero-no-field"].apply(m)
    assert list(applied.nodes) == ["n0", "n2", "n3"]  # Softmax axis = -1 is not a zero value
    concat = mutant.graph.node[0].attribute[0]
    assert (concat.name, concat.type, concat.HasField("i")) == ("axis", onnx.AttributeProto.INT, False)
    assert not mutant.graph.node[2].attribute[0].HasField("f")
    assert checker_error(mutant) is None
    verify_equivalent(m, mutant, feeds(m), "attribute-zero-no-field")
    back, applied = REWRITES["attribute-zero-explicit"].apply(mutant)
    assert list(applied.nodes) == ["n0", "n2", "n3"]
    assert back.SerializeToString(deterministic=True) == m.SerializeToString(deterministic=True)


def test_negative_zero_and_only():
    m = named("""g (float[2] x) => (float[2] y) { y = LeakyRelu<alpha = -0.0>(x) }""", opset=13)
    assert REWRITES["attribute-zero-no-field"].apply(m) is None  # -0.0 is not the proto3 default
    m = named(ZEROS, opset=13)
    assert REWRITES["attribute-zero-no-field"].edit(m, frozenset({"n3"})) == ["n3"]
    assert m.graph.node[0].attribute[0].HasField("i")
