"""The schema-walk rewrites (transpose perm, Relu as Max/Clip, Split sizes, Reshape entries,
variadic Max/Min and Sum, function bodies): each finds its sites where expected, its mutant passes
the equivalence gate (real onnxruntime, real shape inference), and its inverse undoes it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import feeds, named

LIGHT = Path(onnx.__file__).parent / "backend/test/data/light"


def TRANSPOSES():
    return named(
        """g (float[N, 3, 4] x) => (float[4, 3, N] y, float[N, 4, 3] z, float[4, 3, N] w) {
    y = Transpose(x)
    z = Transpose<perm = [0, 2, 1]>(x)
    w = Transpose<perm = [2, 1, 0]>(x)
}""",
        opset=13,
    )


def LOOP_TRANSPOSE():
    """A reversing Transpose inside a Loop body (trip count 2, no condition): a subgraph site."""
    return named(
        """g (float[3, 4] x, int64 trips) => (float[3, 4] y) {
    y = Loop(trips, , x) <body = b (int64 i, bool c, float[3, 4] v) => (bool co, float[3, 4] vo) {
        co = Identity(c)
        t = Transpose<perm = [1, 0]>(v)
        vo = Transpose(t)
    }>
}""",
        opset=13,
    )


def RELUS():
    return named(
        """g (float[N, 4] x, int32[N, 4] i) => (float[N, 4] y, int32[N, 4] j, float[N, 4] z) {
    y = Relu(x)
    j = Relu(i)
    z = Neg(y)
}""",
        opset=14,
    )


def SPLITS(opset: int):
    def build():
        return named(
            """g (float[N, 6] x, int64[N, 7] i) => (float[N, 3] a, float[N, 3] b, float[N, 2] c, float[N, 2] d,
            float[N, 2] e, int64[N, 4] p, int64[N, 3] q) {
    a, b = Split<axis = 1>(x, s33)
    c, d, e = Split<axis = -1>(x, s222)
    p, q = Split<axis = 1>(i, s43)
}""",
            opset=opset,
            initializers=[
                tensor("s33", np.array([3, 3], np.int64)),
                tensor("s222", np.array([2, 2, 2], np.int64)),
                tensor("s43", np.array([4, 3], np.int64)),
            ],
        )

    return build


def RESHAPES():
    return named(
        """g (float[2, 3, 4] x, float[N, 6] y) => (float[2, 12] a, float[6, 4] b, float[N, 2, 3] c, float[24] d) {
    a = Reshape(x, s0m1)
    b = Reshape(x, s64)
    c = Reshape(y, s023)
    d = Reshape(x, sm1)
}""",
        opset=14,
        initializers=[
            tensor("s0m1", np.array([0, -1], np.int64)),
            tensor("s64", np.array([6, 4], np.int64)),
            tensor("s023", np.array([0, 2, 3], np.int64)),
            tensor("sm1", np.array([-1], np.int64)),
        ],
    )


def VARIADICS():
    return named(
        """g (float[N, 4] x, float[N, 4] y, int64[N, 4] i, int64[4] j)
        => (float[N, 4] a, float[N, 4] b, int64[N, 4] c, float[N, 4] d, float[N, 4] e) {
    m = Max(x, y)
    a = Max(m, x, y)
    k = Min(i, j)
    c = Min(k, i)
    b = Add(x, y)
    d = Sum(a, b)
    e = Sum(x, y, a)
}""",
        opset=13,
    )


def FUNCTION_OPS():
    return named(
        """g (float[N, 3, 4] x, float[4] s, float[4] b) => (float[N, 3, 4] y, float[N, 3, 4] z, float[N, 3, 4] w) {
    a = LayerNormalization(x, s, b)
    y = LeakyRelu<alpha = 0.2>(a)
    z = Softmax<axis = 1>(x)
    w = Relu(x)
}""",
        opset=18,
        initializers=[
            tensor("s", np.linspace(0.5, 2, 4, dtype=np.float32)),
            tensor("b", np.arange(4, dtype=np.float32)),
        ],
    )


CASES = [
    ("transpose-perm-explicit", TRANSPOSES, ["n0"]),
    ("transpose-perm-omitted", TRANSPOSES, ["n2"]),  # [0, 2, 1] is no reversal
    ("transpose-perm-omitted", LOOP_TRANSPOSE, ["b/#1:Transpose"]),
    ("relu-as-max", RELUS, ["n0", "n1"]),
    ("relu-as-clip", RELUS, ["n0", "n1"]),
    ("split-sizes-explicit", SPLITS(13), []),  # every Split names its sizes
    ("split-equal-parts", SPLITS(13), ["n0", "n1"]),  # [4, 3] is no equal split
    ("split-equal-parts", SPLITS(18), ["n0", "n1", "n2"]),  # num_outputs = 2 of 7: chunks [4, 3]
    ("reshape-dims-explicit", RESHAPES, ["n0", "n3"]),  # c: output dim N is not static
    ("reshape-dims-implicit", RESHAPES, ["n1"]),
    ("variadic-merge", VARIADICS, ["n1", "n3"]),
    ("add-as-sum", VARIADICS, ["n4"]),
    ("sum-as-add", VARIADICS, ["n5"]),  # three float inputs are left alone
    ("expand-function-ops", FUNCTION_OPS, ["n0", "n1", "n2", "n3"]),  # Relu-14 has a body too
]


@pytest.mark.parametrize(("rid", "build", "sites"), CASES, ids=[f"{r}-{i}" for i, (r, _b, _s) in enumerate(CASES)])
def test_rewrite_finds_its_sites_and_passes_the_gate(rid, build, sites):
    original = build()
    applied = REWRITES[rid].apply(original)
    if not sites:
        assert applied is None
        return
    mutant, where = applied
    assert list(where.nodes) == sites
    verify_equivalent(original, mutant, feeds(original), rid)
    one, _ = REWRITES[rid].apply(original, [sites[-1]])
    verify_equivalent(original, one, feeds(original), rid)
    if (inverse := REWRITES[rid].inverse) is not None:
        back = REWRITES[inverse].apply(mutant)
        if back is None and all("/" in s for s in sites):
            return  # subgraph sites: writing a perm back needs the rank, known for the main graph only
        assert back is not None, f"{inverse} does not undo {rid}"
        verify_equivalent(original, back[0], feeds(original), inverse)


def LOOPS():
    """A Loop whose body reads x and w from the outer scope (w inside a nested If too), and one
    carrying k unchanged (an Identity of its body input) with its final value unread."""
    return named(
        """g (float[3, 4] x, int64 trips, bool flag) => (float[3, 4] y, float[3, 4] z) {
    w = Neg(x)
    y = Loop(trips, , x) <body = b (int64 i, bool c, float[3, 4] v) => (bool co, float[3, 4] vo) {
        co = Identity(c)
        t = Add(v, x)
        vo = If(flag) <then_branch = th () => (float[3, 4] r) { r = Mul(t, w) },
                       else_branch = el () => (float[3, 4] r2) { r2 = Identity(t) }>
    }>
    z, kf = Loop(trips, , x, w) <body = b2 (int64 i2, bool c2, float[3, 4] a, float[3, 4] k)
                                  => (bool co2, float[3, 4] ao, float[3, 4] ko) {
        co2 = Identity(c2)
        ko = Identity(k)
        ao = Sub(a, k)
    }>
}""",
        opset=13,
    )


LOOP_CASES = [
    ("outer-read-as-loop-carried", LOOPS, ["n1/x", "n1/flag", "n1/w"]),
    ("loop-carried-as-outer-read", LOOPS, ["n2/w"]),  # n2's a is a real carried value
]


@pytest.mark.parametrize(("rid", "build", "sites"), LOOP_CASES, ids=[r for r, _b, _s in LOOP_CASES])
def test_loop_carried_rewrites(rid, build, sites):
    test_rewrite_finds_its_sites_and_passes_the_gate(rid, build, sites)


def NEUTRAL_VALUES():
    return named(
        """g (float[N, 4] x, bool[N, 4] p, int32[4] i) => (float[N, 4] y, bool[N, 4] q, int32[4] j) {
    y = Neg(x)
    q = Not(p)
    j = Abs(i)
}""",
        opset=13,
    )


NEUTRAL_CASES = [
    ("neutral-one-input-variadic", NEUTRAL_VALUES, ["x", "i", "y", "j"]),  # bool p, q: no Sum/Max/Min/Mean
    ("neutral-where-not", NEUTRAL_VALUES, ["x", "p", "i", "y", "q", "j"]),
]


@pytest.mark.parametrize(("rid", "build", "sites"), NEUTRAL_CASES, ids=[r for r, _b, _s in NEUTRAL_CASES])
def test_neutral_insertions_pass_the_gate_and_are_removed(rid, build, sites):
    original = build()
    mutant, where = REWRITES[rid].apply(original)
    assert list(where.nodes) == sites
    verify_equivalent(original, mutant, feeds(original), rid)
    back, _ = REWRITES["neutral-remove"].apply(mutant)
    kinds = {n.op_type for n in back.graph.node}
    assert not kinds & {"Sum", "Max", "Min", "Mean", "Where"}, kinds
    verify_equivalent(original, back, feeds(original), "neutral-remove")


def CALLS():
    """Two Adds of one type (one function, one set of input types) and a Mul called with float and
    int32 inputs (one polymorphic function), after node-as-local-function."""
    m = named(
        """g (float[N, 4] x, int32[4] i) => (float[N, 4] y, int32[4] j) {
    a = Add(x, x)
    b = Add(a, x)
    c = Mul(b, b)
    y = Relu(c)
    j = Mul(i, i)
}""",
        opset=13,
    )
    return REWRITES["node-as-local-function"].apply(m)[0]


def test_function_value_info_types_monomorphic_functions_only():
    original = CALLS()
    mutant, where = REWRITES["function-value-info"].apply(original)
    assert sorted(where.nodes) == ["org.passcheck.local:Add_fn0", "org.passcheck.local:Relu_fn2"]  # not the Mul
    assert mutant.ir_version >= 10
    add = next(f for f in mutant.functions if f.name == "Add_fn0")
    assert {v.name: v.type.tensor_type.elem_type for v in add.value_info} == {"x0": 1, "x1": 1, "y0": 1}
    verify_equivalent(original, mutant, feeds(original), "function-value-info")
    back, _ = REWRITES["function-value-info-stripped"].apply(mutant)
    assert not any(f.value_info for f in back.functions)
    verify_equivalent(original, back, feeds(original), "function-value-info-stripped")


def test_function_overloads_split_and_merge():
    original = CALLS()  # Add_fn0 is called twice, Mul's function twice (float and int32)
    mutant, where = REWRITES["function-overload-split"].apply(original)
    assert [s.split(":")[1].split("_")[0] for s in where.nodes] == ["Add", "Mul"]
    assert mutant.ir_version >= 10 and len(mutant.functions) == len(original.functions) + 2
    assert sorted(n.overload for n in mutant.graph.node if n.op_type.startswith("Add")) == ["", "p1"]
    verify_equivalent(original, mutant, feeds(original), "function-overload-split")
    back, merged = REWRITES["function-overload-merge"].apply(mutant)
    assert merged.count == 2 and len(back.functions) == len(original.functions)
    assert not any(n.overload for n in back.graph.node)
    verify_equivalent(original, back, feeds(original), "function-overload-merge")


def test_training_info_added_and_stripped():
    original = named(
        """g (float[N, 4] x) => (float[N, 4] y) { y = Add(x, w) }""",
        opset=13,
        initializers=[tensor("w", np.linspace(-1, 1, 4, dtype=np.float32))],
    )
    mutant, where = REWRITES["add-training-info"].apply(original)
    assert list(where.nodes) == ["model"] and len(mutant.training_info) == 1
    assert [(b.key, b.value) for b in mutant.training_info[0].update_binding] == [("w", "w_next")]
    verify_equivalent(original, mutant, feeds(original), "add-training-info")
    back, _ = REWRITES["strip-training-info"].apply(mutant)
    assert not back.training_info


def OLD_ATTRIBUTES():
    """Opset 9 stamped with IR 7, whose range reaches opset 13."""
    m = named(
        """g (float[N, 6] x) => (float[N, 3] a, float[N, 3] b, float[N, 4] c, float[N, 6] d, float[N, 9] e) {
    a, b = Split<axis = 1, split = [3, 3]>(x)
    c = Slice<starts = [1], ends = [5], axes = [1]>(x)
    d = Clip<min = -0.5>(x)
    e = Pad<pads = [0, 1, 0, 2], value = 1.5>(x)
}""",
        opset=9,
    )
    m.ir_version = 7
    return m


def test_attributes_as_inputs_moves_every_node_and_the_stamp():
    original = OLD_ATTRIBUTES()
    mutant, where = REWRITES["attributes-as-inputs"].apply(original)
    assert list(where.nodes) == ["n0", "n1", "n2", "n3"]
    assert [o.version for o in mutant.opset_import if o.domain in ("", "ai.onnx")] == [13]
    moved = [n for n in mutant.graph.node if n.op_type != "Constant"]
    assert not any(a.name in ("split", "starts", "min", "pads", "value") for n in moved for a in n.attribute)
    verify_equivalent(original, mutant, feeds(original), "attributes-as-inputs")
    assert REWRITES["attributes-as-inputs"].apply(original, ["n0"]) is None  # the nodes move together


def test_transpose_perm_omitted_leaves_a_perm_read_by_reference_alone():
    """A body's ``Transpose<perm=@perm>`` (node-as-local-function on a reversing Transpose) has no value in the body
    (IR.md §Functions: the caller's): the rewrite skipped it where it used to raise (round 21l, fusion-sdpa/bare)."""
    plain = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 17]>
        g (float[2, 3] x) => (float[3, 2] y) {
            y = Transpose <perm = [1, 0]> (x)
        }"""
    )
    original = REWRITES["node-as-local-function"].apply(plain)[0]
    body = original.functions[0].node[0]
    assert [a.ref_attr_name for a in body.attribute] == ["perm"]
    assert REWRITES["transpose-perm-omitted"].apply(original) is None
    mutant, _ = REWRITES["in-body-transpose-perm-omitted"].apply(original)  # one call: its view holds the value
    assert not mutant.functions[0].node[0].attribute
    verify_equivalent(original, mutant, feeds(original), "in-body-transpose-perm-omitted")
