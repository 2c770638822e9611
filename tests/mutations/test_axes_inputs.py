"""Squeeze/Unsqueeze/Reduce* axes attribute ↔ input with the opset stamp moved (issue 15)."""

from __future__ import annotations

import onnx

from passcheck.mutations import REWRITES, verify_equivalent

from ._models import feeds, named

LN17 = """g (float[N, 3, 4] x) => (float[N, 3, 4] y) {
    m = ReduceMean<axes = [-1]>(x)
    d = Sub(x, m)
    two = Constant<value = float {2.0}>()
    p = Pow(d, two)
    v = ReduceMean<axes = [-1], keepdims = 1>(p)
    eps = Constant<value = float {1e-5}>()
    ve = Add(v, eps)
    s = Sqrt(ve)
    y = Div(d, s)
}"""


def _attrs(m):
    return [
        (n.op_type, len(n.input), [a.name for a in n.attribute])
        for n in m.graph.node
        if n.op_type.startswith(("Reduce", "Squeeze", "Unsqueeze"))
    ]


def test_decomposed_layernorm_reduce_axes_to_inputs_at_opset_18_and_back():
    m = named(LN17, opset=17)
    mutant, applied = REWRITES["axes-as-input"].apply(m)
    assert list(applied.nodes) == ["n0", "n4"] and mutant.opset_import[0].version == 18
    assert _attrs(mutant) == [("ReduceMean", 2, []), ("ReduceMean", 2, ["keepdims"])]
    onnx.checker.check_model(mutant)
    verify_equivalent(m, mutant, feeds(m), "axes-as-input")
    back, applied = REWRITES["axes-as-attribute"].apply(mutant)
    assert list(applied.nodes) == ["n0", "n4"] and back.opset_import[0].version == 17
    assert _attrs(back) == [("ReduceMean", 1, ["axes"]), ("ReduceMean", 1, ["keepdims", "axes"])]
    verify_equivalent(m, back, feeds(m), "axes-as-attribute")


def test_squeeze_family_moves_to_13_where_other_ops_only_gain_types():
    m = named(
        """g (float[N, 1, 3] x) => (float[N, 3] y, float[N, 1, 1, 3] z) {
        s = Squeeze<axes = [1]>(x)
        y = Relu(s)
        z = Unsqueeze<axes = [1]>(x)
    }""",
        opset=12,
    )
    mutant, applied = REWRITES["axes-as-input"].apply(m)
    assert list(applied.nodes) == ["n0", "n2"] and mutant.opset_import[0].version == 13
    verify_equivalent(m, mutant, feeds(m), "axes-as-input")


def test_not_where_another_op_changes_meaning_across_the_move():
    m = named(
        """g (float[N, 1, 3] x) => (float[N, 3] y) {
        s = Squeeze<axes = [1]>(x)
        y = Softmax(s)
    }""",
        opset=12,
    )  # Softmax-13 changed its axis default and meaning
    assert REWRITES["axes-as-input"].apply(m) is None


def test_computed_or_noop_axes_have_no_attribute_spelling():
    computed = named(
        """g (float[N, 3] x, int64[1] ax) => (float[N] y) { y = ReduceSum<keepdims = 0>(x, ax) }""", opset=13
    )
    assert REWRITES["axes-as-attribute"].apply(computed) is None
    noop = named(
        """g (float[N, 3] x) => (float[N, 3] y, float[N] z) {
        e = Constant<value = int64[0] {}>()
        y = ReduceSum<noop_with_empty_axes = 1>(x, e)
        one = Constant<value = int64[1] {1}>()
        z = ReduceSum<keepdims = 0>(x, one)
    }""",
        opset=13,
    )
    assert REWRITES["axes-as-attribute"].apply(noop) is None


def test_the_nodes_of_one_stamp_move_are_one_selection():
    m = named(LN17, opset=17)
    assert REWRITES["axes-as-input"].edit(m, frozenset({"n0"})) == []  # n4 must move with it: nothing changes
    assert m.opset_import[0].version == 17
    assert REWRITES["axes-as-input"].edit(m, frozenset({"n0", "n4", "n2"})) == ["n0", "n4"]


BOOL_MIN = """g (bool[2, 3] x) => (bool[2, 1] y) {
    axes = Constant<value = int64[1] {1}>()
    y = ReduceMin(x, axes)
}"""


def test_not_where_the_lower_version_lacks_the_element_type():
    """ReduceMin-20 takes bool, ReduceMin-13 (what opset 17 selects) does not: no attribute
    spelling at 17; and a stamp lowered anyway is refused by the gate's strict check (the plain
    checker accepts it, onnxruntime rejects it, the reference evaluator would run it)."""
    import pytest

    from passcheck.errors import PasscheckInternalError
    from passcheck.mutations._opsets import set_default_opset

    m = named(BOOL_MIN, opset=20)
    assert REWRITES["axes-as-attribute"].apply(m) is None
    lowered = onnx.ModelProto()
    lowered.CopyFrom(m)
    axes = lowered.graph.node[0]
    lowered.graph.node.remove(axes)
    del lowered.graph.node[0].input[1:]
    lowered.graph.node[0].attribute.append(onnx.helper.make_attribute("axes", [1]))
    set_default_opset(lowered, 17)
    onnx.checker.check_model(lowered)  # the plain checker does not see it
    with pytest.raises(PasscheckInternalError, match="tensor\\(bool\\)"):
        verify_equivalent(m, lowered, feeds(m), "axes-as-attribute")
    float_min = named(BOOL_MIN.replace("bool", "float"), opset=20)
    assert REWRITES["axes-as-attribute"].apply(float_min) is not None  # float is in both versions
