"""Issue 27's operator-schema and algebraic rewrites: each finds its sites where expected, its mutant
passes the equivalence gate (real onnxruntime, real shape inference), and its inverse undoes it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import assert_verified_on_case, feeds, named

LIGHT = Path(onnx.__file__).parent / "backend/test/data/light"


def ARITH():
    return named(
        """g (float[N, 4] x, float[N, 4] y, int64[3] i, int64[3] j)
        => (float[N, 4] a, float[N, 4] b, int64[3] c, float[N, 4] d, float[N, 4] e) {
    a = Sub(x, y)
    b = Div(a, two)
    c = Sub(i, j)
    d = Mul(b, quarter)
    e = Div(d, three)
}""",
        opset=13,
        initializers=[
            tensor("two", np.array([2, 0.5, 4, -8], np.float32)),
            tensor("quarter", np.float32(0.25)),
            tensor("three", np.float32(3)),
        ],
    )


def NEUTRALS():
    return named(
        """g (float[N, 4] x, int64[2] k, bool[2] t) => (float[N, 4] y, int64[2] z, bool[2] u) {
    a = Add(x, zero)
    b = Transpose<perm = [0, 1]>(a)
    c = Cast<to = 1>(b)
    d = Concat<axis = 0>(c)
    e = Identity(d)
    f = Mul(e, one)
    y = Relu(f)
    m = Mul(k, ione)
    z = Neg(m)
    v = And(t, yes)
    u = Not(v)
    w = Mul(x, notone)
    q = Transpose<perm = [1, 0]>(w)
}""",
        opset=13,
        initializers=[
            tensor("zero", np.zeros(4, np.float32)),
            tensor("one", np.float32(1)),
            tensor("ione", np.int64(1)),
            tensor("yes", np.array([True, True])),
            tensor("notone", np.float32(2)),
        ],
    )


def SHAPES():
    return named(
        """g (float[2, 3, 4] x) => (float[2, 3, 4] y, float[2, 12] z, float[6, 4] w, float[1, 24] v) {
    s = Reshape(x, same)
    e = Expand(s, ones)
    sl = Slice(e, st, en)
    y = Relu(sl)
    z = Flatten(x)
    w = Flatten<axis = 2>(x)
    v = Flatten<axis = 0>(x)
}""",
        opset=13,
        initializers=[
            tensor("same", np.array([2, 3, 4], np.int64)),
            tensor("ones", np.array([1, 1], np.int64)),
            tensor("st", np.array([0], np.int64)),
            tensor("en", np.array([9], np.int64)),
        ],
    )


def RESHAPES():
    return named(
        """g (float[2, 3, 4] x) => (float[6, 4] a, float[2, 12] b, float[4, 6] c) {
    a = Reshape(x, s64)
    b = Reshape(x, s212)
    c = Reshape(x, s46)
}""",
        opset=13,
        initializers=[
            tensor("s64", np.array([6, 4], np.int64)),
            tensor("s212", np.array([2, -1], np.int64)),
            tensor("s46", np.array([4, 6], np.int64)),
        ],
    )


def REDUCES():
    return named(
        """g (float[2, 3, 4] x) => (float[1, 1, 1] a, float b, float[2] c, float[1, 1, 1] d) {
    a = ReduceMean<axes = [0, 1, -1]>(x)
    b = ReduceSum<keepdims = 0>(x, all)
    c = ReduceMax<axes = [1, 2], keepdims = 0>(x)
    d = ReduceMin(x)
}""",
        opset=13,
        initializers=[tensor("all", np.array([2, 0, 1], np.int64))],
    )


def REDUCES_18():
    return named(
        """g (float[2, 3] x) => (float[1, 1] a, float[1, 1] b) {
    a = ReduceMean(x)
    b = ReduceL2<noop_with_empty_axes = 0>(x)
}""",
        opset=18,
    )


def BOUNDS():
    return named(
        """g (float[N, 4] x, int32[3] i) => (float[N, 4] a, float[N, 4] b, int32[3] c, float[N, 4] d) {
    a = Clip(x, lo)
    b = Clip(x, , hi)
    c = Clip(i)
    d = Clip(x, ninf, pinf)
}""",
        opset=13,
        initializers=[
            tensor("lo", np.float32(-0.5)),
            tensor("hi", np.float32(0.5)),
            tensor("ninf", np.float32(-np.inf)),
            tensor("pinf", np.float32(np.inf)),
        ],
    )


def PADS():
    return named(
        """g (float[2, 3] x, int64[2, 3] i)
        => (float[4, 5] a, int64[4, 5] b, float[4, 5] c, float[4, 5] d) {
    a = Pad(x, p)
    b = Pad(i, p, )
    c = Pad(x, p, zero)
    d = Pad<mode = "reflect">(x, p)
}""",
        opset=13,
        initializers=[tensor("p", np.array([1, 1, 1, 1], np.int64)), tensor("zero", np.float32(0))],
    )


def SELECTS():
    return named(
        """g (float[2, 6, 4] x) => (float[2, 4] a, float[2, 1, 4] b, float[2, 1, 4] c, float[2, 2, 4] d,
                                            float[2, 4, 4] e, float[2, 3, 4] f, float[2, 3, 4] h) {
        a = Gather<axis = 1>(x, last)
        b = Gather<axis = 1>(x, one)
        c = Slice(x, s2, e3, ax1)
        d, e = Split<axis = 1>(x, sizes)
        f, h = Split<axis = 1>(x)
    }""",
        opset=13,
        initializers=[
            tensor("last", np.int64(-1)),
            tensor("one", np.array([1], np.int64)),
            tensor("s2", np.array([2], np.int64)),
            tensor("e3", np.array([3], np.int64)),
            tensor("ax1", np.array([1], np.int64)),
            tensor("sizes", np.array([2, 4], np.int64)),
        ],
    )


def CHAINS():
    return named(
        """g (int64[N, 4] i, int64[4] j, float[N, 4] x, float[4] y, bool[4] t)
        => (int64[N, 4] a, float[N, 4] b, float[N, 4] c, bool[4] d) {
        p = Add(i, j)
        a = Add(p, j)
        q = Max(x, y)
        b = Max(y, q)
        r = Add(x, y)
        c = Add(r, x)
        s = And(t, t)
        d = And(s, t)
    }""",
        opset=13,
    )


CASES = [
    ("gather-as-slice", SELECTS, ["n0", "n1"]),
    ("slice-as-gather", SELECTS, ["n2"]),
    ("split-as-slices", SELECTS, ["n3", "n4"]),
    ("reassociate", CHAINS, ["n1", "n3", "n7"]),  # float Add (n5) is not associative bit for bit
    ("neg-as-mul-minus-one", NEUTRALS, ["n8"]),
    ("clip-as-max-min", BOUNDS, ["n0", "n1", "n3"]),  # Clip(i) has no bound
    ("sub-as-add-neg", ARITH, ["n0", "n2"]),
    ("div-as-mul-reciprocal", ARITH, ["n1"]),  # 3 is no power of two
    ("mul-as-div-reciprocal", ARITH, ["n3"]),
    ("neutral-remove", NEUTRALS, ["n0", "n1", "n2", "n3", "n4", "n5", "n7", "n9"]),  # Mul by 2, perm [1, 0] stay
    ("neutral-remove", SHAPES, ["n0", "n1", "n2"]),
    ("flatten-as-reshape", SHAPES, ["n4", "n5", "n6"]),
    ("reshape-as-flatten", RESHAPES, ["n0", "n1"]),  # [4, 6]: no prefix of [2, 3, 4] multiplies to 4
    ("reduce-axes-omitted", REDUCES, ["n0", "n1"]),
    ("reduce-axes-all-explicit", REDUCES, ["n3"]),
    ("reduce-axes-all-explicit", REDUCES_18, ["n0", "n1"]),
    ("clip-bounds-explicit", BOUNDS, ["n0", "n1", "n2"]),
    ("clip-bounds-omitted", BOUNDS, ["n3"]),
    ("pad-value-explicit", PADS, ["n0", "n1"]),
    ("pad-value-omitted", PADS, ["n2"]),
    ("neutral-elementwise", ARITH, ["x", "y", "i", "j", "a", "b", "c", "d", "e"]),  # not the initializers
    ("neutral-shape-ops", PADS, ["x", "i", "a", "b", "c", "d"]),
]


@pytest.mark.parametrize(("rid", "build", "sites"), CASES, ids=[f"{r}-{i}" for i, (r, _b, _s) in enumerate(CASES)])
def test_rewrite_finds_its_sites_and_passes_the_gate(rid, build, sites):
    original = build()
    mutant, applied = REWRITES[rid].apply(original)
    assert list(applied.nodes) == sites
    verify_equivalent(original, mutant, feeds(original), rid)
    one, _ = REWRITES[rid].apply(original, [sites[-1]])
    verify_equivalent(original, one, feeds(original), rid)
    if (inverse := REWRITES[rid].inverse) is not None and inverse != "neutral-remove":
        back = REWRITES[inverse].apply(mutant)
        assert back is not None, f"{inverse} does not undo {rid}"
        verify_equivalent(original, back[0], feeds(original), inverse)


def test_inserted_neutral_chains_are_removed_again():
    original = ARITH()
    for rid in ("neutral-elementwise", "neutral-shape-ops"):
        mutant, _ = REWRITES[rid].apply(original)
        back, applied = REWRITES["neutral-remove"].apply(mutant)
        assert [n.op_type for n in back.graph.node] == [n.op_type for n in original.graph.node]
        verify_equivalent(original, back, feeds(original), "neutral-remove")


def test_neutral_add_keeps_negative_zero():
    """x + (-0.0) is x bit for bit; x + (+0.0) would turn -0 into +0 (IEEE 754 §6.3)."""
    m = named(
        """g (float[2] x) => (float[2] y) {
        y = Div(one, x)
    }""",
        opset=13,
        initializers=[tensor("one", np.float32(1))],
    )
    mutant, _ = REWRITES["neutral-elementwise"].apply(m, ["x"])
    verify_equivalent(m, mutant, [{"x": np.array([-0.0, 2.0], np.float32)}], "neutral-elementwise")
    zero = next(n for n in mutant.graph.node if n.op_type == "Constant" and "zero" in n.output[0])
    assert np.signbit(onnx.numpy_helper.to_array(zero.attribute[0].t))


def test_old_opsets_get_only_what_their_schemas_take():
    """Opset 7: Constant-1 holds floats only (no int64 shapes for Reshape), Expand is not there yet
    (8), Slice takes attributes (before 10)."""
    m = named(
        """g (float[2, 3] x) => (float[2, 3] y) {
        y = Relu(x)
    }""",
        opset=7,
    )
    mutant, _ = REWRITES["neutral-elementwise"].apply(m)
    assert {n.op_type for n in mutant.graph.node} == {"Constant", "Add", "Mul", "Cast", "Relu"}
    verify_equivalent(m, mutant, feeds(m), "neutral-elementwise")
    mutant, _ = REWRITES["neutral-shape-ops"].apply(m)
    chain = ["Transpose", "Slice", "Concat"]
    assert [n.op_type for n in mutant.graph.node] == [*chain, "Relu", *chain]
    verify_equivalent(m, mutant, feeds(m), "neutral-shape-ops")


@pytest.mark.parametrize("rid", ["neutral-elementwise", "neutral-shape-ops"])
def test_neutral_chains_on_a_real_model(rid):
    """The onnx wheel's light SqueezeNet (opset 9): every node-to-node edge and output gets the chain."""
    model = onnx.load(LIGHT / "light_squeezenet.onnx")
    mutant, applied = REWRITES[rid].apply(model)
    assert applied.count >= 60
    verify_equivalent(model, mutant, feeds(model), rid)


ON_CASES = [
    ("neutral-elementwise", "optional-input/conv-add"),
    ("neutral-shape-ops", "optional-input/conv-add"),
    ("neutral-remove", "shape/dynamic-m10-10-reshape"),
    ("sub-as-add-neg", "fusion-norm/layernorm-r1"),
    ("div-as-mul-reciprocal", "fusion-attention/bert-block"),
    ("mul-as-div-reciprocal", "broadcast/scalar-rank"),
    ("reduce-axes-omitted", "fusion-norm/layernorm-r1"),
    ("reduce-axes-all-explicit", "optional-input/reducesum-axes"),
    ("clip-bounds-explicit", "optional-input/clip-min-only"),
    ("pad-value-explicit", "count/pad-static"),
    ("gather-as-slice", "count/topk-opsets"),
    ("split-as-slices", "optional-input/split-split"),
]


@pytest.mark.parametrize(("rid", "case_id"), ON_CASES, ids=[f"{r}-{c}" for r, c in ON_CASES])
def test_rewrite_verified_on_a_library_case(rid, case_id):
    """The common form of a hand-written library case: the rewrite applies and the gate accepts it."""
    assert_verified_on_case(rid, case_id)
