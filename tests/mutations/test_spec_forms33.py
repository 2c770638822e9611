"""The keepdims/Squeeze and scalar-or-ones operand rewrites: each finds its sites where expected (and
not where the spec's condition fails), its mutant passes the equivalence gate (real onnxruntime, real
shape inference), one site alone passes too, and its inverse undoes it."""

from __future__ import annotations

import numpy as np
import pytest

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES

from ._models import assert_sites_gate_and_inverse, assert_verified_on_case, named


def REDUCES():
    return named(
        """g (float[N, 3, 4] x) => (float[N, 4] a, float[N] b, float[N, 4] d, float[N, 1, 4] c, float[N, 1] f) {
        a = ReduceSum<keepdims = 0>(x, ax1)
        b = ReduceMax<keepdims = 0>(x, ax12)
        k = ReduceMean(x, ax1)
        d = Squeeze(k, axm2)
        c = ReduceMin(x, ax1)
        k2 = ReduceL2(x, ax12)
        f = Squeeze(k2, ax1)
    }""",
        opset=18,
        initializers=[
            tensor("ax1", np.array([1], np.int64)),
            tensor("ax12", np.array([2, 1], np.int64)),
            tensor("axm2", np.array([-2], np.int64)),
        ],
    )


def REDUCES_11():
    return named(
        """g (float[2, 3, 4] x) => (float[2, 4] a, float[2, 3] d) {
        a = ReduceSum<keepdims = 0, axes = [1]>(x)
        k = ReduceMean<axes = [-1]>(x)
        d = Squeeze<axes = [2]>(k)
    }""",
        opset=11,
    )


def SCALARS():
    return named(
        """g (float[N, 3] x, int64[N] i, float[3] v)
        => (float[N, 3] a, float[N, 3] b, float[N, 3] c, bool[N, 3] d, float[1] e, int64[N] f, float[1, 3] h) {
        a = Add(x, s0)
        b = Mul(x, o1)
        cc = Constant<value = float[1, 1] {2}>()
        c = Div(x, cc)
        d = Greater(x, s0)
        e = Add(o1, s0)
        ci = Constant<value = int64 {3}>()
        f = Add(i, ci)
        h = Mul(v, o11)
    }""",
        opset=13,
        initializers=[
            tensor("s0", np.float32(0.5)),
            tensor("o1", np.array([3], np.float32)),
            tensor("o11", np.array([[-1.5]], np.float32)),
        ],
    )


CASES = [
    ("keepdims-squeeze", REDUCES, ["n0", "n1"]),
    ("squeeze-keepdims", REDUCES, ["n2"]),  # n4 writes a graph output; n6's Squeeze drops other axes
    ("keepdims-squeeze", REDUCES_11, ["n0"]),
    ("squeeze-keepdims", REDUCES_11, ["n1"]),  # axes [-1] and [2] are the same axis of a rank-3 input
    ("operand-ones-as-scalar", SCALARS, ["n1", "n3"]),  # n5, n8: no other operand of rank >= the constant's
    ("operand-scalar-as-one", SCALARS, ["n0", "n4", "n5", "n7"]),
]


@pytest.mark.parametrize(("rid", "build", "sites"), CASES, ids=[f"{r}-{b.__name__}" for r, b, _s in CASES])
def test_rewrite_finds_its_sites_and_passes_the_gate(rid, build, sites):
    assert_sites_gate_and_inverse(rid, build(), sites)


def test_scalar_operand_keeps_the_spelling_and_shares_one_copy():
    """s0 has three readers: one new [1] initializer serves them all, the old one is gone; the Constant
    stays a Constant."""
    m = SCALARS()
    mutant, _ = REWRITES["operand-scalar-as-one"].apply(m)
    inits = {t.name: list(t.dims) for t in mutant.graph.initializer}
    assert "s0" not in inits
    new = {n.input[1] for n in mutant.graph.node if n.name in ("n0", "n4", "n5")}
    assert len(new) == 1 and inits[new.pop()] == [1]
    made = [n for n in mutant.graph.node if n.op_type == "Constant" and n.output[0] == mutant.graph.node[-2].input[1]]
    assert len(made) == 1 and list(made[0].attribute[0].t.dims) == [1]


ON_CASES = [
    ("keepdims-squeeze", "axes/reducesum-attribute-vs-input"),
    ("operand-scalar-as-one", "pattern-ort/div-mul"),
    ("operand-scalar-as-one", "fusion-norm/layernorm-r2"),
]


@pytest.mark.parametrize(("rid", "case_id"), ON_CASES, ids=[f"{r}-{c}" for r, c in ON_CASES])
def test_rewrite_verified_on_a_library_case(rid, case_id):
    """The common form of a hand-written library case: the rewrite applies and the gate accepts it."""
    assert_verified_on_case(rid, case_id)
