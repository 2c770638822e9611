"""The axes/index-sign, Slice-parameter, auto_pad, stored-transposed Gemm B and Cast/CastLike rewrites:
each finds its sites where expected, its mutant passes the equivalence gate (real onnxruntime, real
shape inference), one site alone passes too, and its inverse undoes it."""

from __future__ import annotations

import numpy as np
import pytest

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import assert_sites_gate_and_inverse, assert_verified_on_case, feeds, named

TOP = 2**63 - 1


def INDEXES():
    return named(
        """g (float[N, 3, 4] x, float[2, 3, 4] v)
        => (float[N, 3, 4] b, float[N, 3, 1] c, int64 d, float[N, 1, 4] e, float[N, 3, 4] f,
            float[1, 1, 4] h, float[1, 3, 4] k) {
        a = Unsqueeze(x, ax0)
        b = Squeeze(a, ax0)
        c = ReduceMean<keepdims = 1>(x, axm1)
        s = Shape(x)
        d = Gather(s, one)
        e = Gather<axis = 1>(x, im1)
        f = Slice(x, st, en, ax2)
        h = Slice(v, st2, en2)
        k = Slice(v, st3, en3, axm3, step1)
    }""",
        opset=18,
        initializers=[
            tensor("ax0", np.array([0], np.int64)),
            tensor("axm1", np.array([-1], np.int64)),
            tensor("one", np.int64(1)),
            tensor("im1", np.array([-1], np.int64)),
            tensor("st", np.array([0], np.int64)),
            tensor("en", np.array([TOP], np.int64)),
            tensor("ax2", np.array([2], np.int64)),
            tensor("st2", np.array([0, 1], np.int64)),
            tensor("en2", np.array([1, 2], np.int64)),
            tensor("st3", np.array([1], np.int64)),
            tensor("en3", np.array([3], np.int64)),
            tensor("axm3", np.array([-3], np.int64)),
            tensor("step1", np.array([1], np.int64)),
        ],
    )


def PADDED():
    rng = np.random.default_rng(0)
    return named(
        """g (float[1, 3, 7, 7] x) => (float[1, 2, 4, 4] a, float[1, 2, 7, 7] b, float[1, 3, 6, 6] c,
            float[1, 2, 7, 7] d, float[1, 3, 4, 4] e, float[1, 2, 7, 7] f) {
        a = Conv<auto_pad = "SAME_UPPER", strides = [2, 2]>(x, w)
        b = Conv<auto_pad = "SAME_LOWER">(x, w4)
        c = MaxPool<kernel_shape = [2, 2], auto_pad = "VALID">(x)
        d = Conv<pads = [1, 1, 1, 1]>(x, w)
        e = MaxPool<kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]>(x)
        f = Conv<pads = [0, 1, 2, 1]>(x, w)
    }""",
        opset=13,
        initializers=[
            tensor("w", rng.standard_normal((2, 3, 3, 3)).astype(np.float32)),
            tensor("w4", rng.standard_normal((2, 3, 4, 4)).astype(np.float32)),
        ],
    )


def GEMMS():
    rng = np.random.default_rng(1)
    return named(
        """g (float[2, 4] x) => (float[2, 3] y, int32[2, 3] u, int64[2, 3] v) {
        y = Gemm<transB = 1>(x, wt)
        z = Gemm(x, w2, bias)
        u = Cast<to = 6>(y)
        v = CastLike(z, ilike)
    }""",
        opset=15,
        initializers=[
            tensor("wt", rng.standard_normal((3, 4)).astype(np.float32)),
            tensor("w2", rng.standard_normal((4, 3)).astype(np.float32) * 4),
            tensor("bias", np.float32([1, 2, 3])),
            tensor("ilike", np.array([0], np.int64)),
        ],
    )


def GEMMS_SHARED():
    """A weight two Gemms read as B (a layer called twice, round 18e), and one an Add also reads (left alone)."""
    rng = np.random.default_rng(2)
    return named(
        """g (float[2, 4] x, float[2, 4] x2) => (float[2, 3] y, float[2, 3] y2, float[2, 3] z, float[3, 4] s) {
        y = Gemm<transB = 1>(x, wt)
        y2 = Gemm<transB = 1, alpha = 0.5>(x2, wt)
        z = Gemm<transB = 1>(x, wo)
        s = Add(wo, wo)
    }""",
        opset=15,
        initializers=[
            tensor("wt", rng.standard_normal((3, 4)).astype(np.float32)),
            tensor("wo", rng.standard_normal((3, 4)).astype(np.float32)),
        ],
    )


def SQUEEZES():
    return named(
        """g (float[3, 4] x) => (float[3, 4] z, float[1, 3, 1, 4] u) {
        u = Unsqueeze(x, ax02)
        z = Squeeze(u, ax02)
        v = Unsqueeze(x, ax0)
    }""",
        opset=13,
        initializers=[tensor("ax02", np.array([0, 2], np.int64)), tensor("ax0", np.array([0], np.int64))],
    )


def SQUEEZES_11():
    return named(
        """g (float[3, 4] x) => (float[3, 4] z, float[1, 3, 1, 4] u) {
        u = Unsqueeze<axes = [0, 2]>(x)
        z = Squeeze<axes = [2, 0]>(u)
        v = Squeeze<axes = [0]>(u)
    }""",
        opset=11,
    )


CASES = [
    ("axes-input-negative", INDEXES, ["n0", "n1", "n6"]),
    ("axes-input-positive", INDEXES, ["n2", "n8"]),
    ("gather-index-negative", INDEXES, ["n4"]),
    ("gather-index-positive", INDEXES, ["n5"]),
    ("slice-bounds-negative", INDEXES, ["n6", "n7", "n8"]),  # n8's end 3 on a dim of 2: clamped, then INT64_MAX
    ("slice-bounds-positive", INDEXES, ["n6", "n8"]),
    ("slice-defaults-explicit", INDEXES, ["n6", "n7"]),
    ("slice-defaults-omitted", INDEXES, ["n8"]),  # axes [-3] is axis 0 of a rank-3 input
    ("auto-pad-explicit", PADDED, ["n0", "n1", "n2"]),
    ("auto-pad-named", PADDED, ["n3", "n4"]),  # n5's pads match no mode
    ("gemm-transposed-weight", GEMMS, ["n0", "n1"]),
    ("gemm-transposed-weight", GEMMS_SHARED, ["n0..n1"]),  # n0 and n1 share wt: one site, both flipped; an Add reads wo
    ("cast-as-castlike", GEMMS, ["n2"]),
    ("castlike-as-cast", GEMMS, ["n3"]),
    ("squeeze-axes-reversed", SQUEEZES, ["n0", "n1"]),  # one axis: nothing to reorder
    ("squeeze-axes-reversed", SQUEEZES_11, ["n0", "n1"]),
]


@pytest.mark.parametrize(("rid", "build", "sites"), CASES, ids=[f"{r}-{b.__name__}" for r, b, _s in CASES])
def test_rewrite_finds_its_sites_and_passes_the_gate(rid, build, sites):
    assert_sites_gate_and_inverse(rid, build(), sites)


ON_CASES = [
    ("axes-input-negative", "pattern-onnxscript/unsqueeze-unsqueeze"),
    ("axes-input-positive", "pattern-onnxscript-ort/rms-normalization"),
    ("gather-index-negative", "pattern-ort-fusion/reshape-from-shape"),
    ("slice-bounds-negative", "pattern-ort-fusion/focus-space-to-depth"),
    ("slice-bounds-positive", "pattern-ort/eliminate-slice"),
    ("slice-defaults-explicit", "optional-input/slice-axes-steps"),
    ("slice-defaults-omitted", "pattern-onnxscript/slice-whole-axis"),
    ("auto-pad-explicit", "pattern-onnxscript/conv-auto-pad"),
    ("auto-pad-named", "pattern-ort/pad-conv"),
    ("gemm-transposed-weight", "pattern-ort/gemm-transposed-a"),
    ("cast-as-castlike", "pattern-onnxscript/cast-cast"),
]


@pytest.mark.parametrize(("rid", "case_id"), ON_CASES, ids=[f"{r}-{c}" for r, c in ON_CASES])
def test_rewrite_verified_on_a_library_case(rid, case_id):
    """The common form of a hand-written library case: the rewrite applies and the gate accepts it."""
    assert_verified_on_case(rid, case_id)


def test_new_parameter_tensors_keep_the_spelling_they_replace():
    """An initializer is replaced by an initializer, a Constant by a Constant: the mutant differs from the
    model in the one freedom the rewrite names, not also in initializer-or-constant."""
    m = named(
        """g (float[2, 3, 4] x) => (float[2, 3, 1] y, float[2, 3, 1] z) {
        c = Constant<value = int64[1] {2}>()
        y = Slice(x, st, en, c)
        z = Slice(x, st, en, ax)
    }""",
        opset=13,
        initializers=[
            tensor("st", np.array([0], np.int64)),
            tensor("en", np.array([1], np.int64)),
            tensor("ax", np.array([2], np.int64)),
        ],
    )
    mutant, applied = REWRITES["axes-input-negative"].apply(m)
    assert list(applied.nodes) == ["n1", "n2"]
    made = {n.output[0] for n in mutant.graph.node if n.op_type == "Constant"}
    inits = {t.name for t in mutant.graph.initializer}
    assert mutant.graph.node[-2].input[3] in made and mutant.graph.node[-1].input[3] in inits
    assert "ax" not in inits and "c" not in made  # the replaced tensors had no other reader
    verify_equivalent(m, mutant, feeds(m), "axes-input-negative")


def test_a_weight_shared_by_gemms_is_stored_transposed_once_for_all_of_them():
    """M360: every Gemm reading the shared B flips together and reads the one transposed copy (IR.md: any number of
    nodes may read an initializer); the constant another op also reads keeps its layout."""
    from passcheck.mutations import REWRITES

    mutant, applied = REWRITES["gemm-transposed-weight"].apply(GEMMS_SHARED())
    assert list(applied.nodes) == ["n0..n1"]
    gemms = [n for n in mutant.graph.node if n.op_type == "Gemm"]
    flags = [next(a.i for a in n.attribute if a.name == "transB") for n in gemms]
    assert flags == [0, 0, 1] and gemms[0].input[1] == gemms[1].input[1] != "wt" and gemms[2].input[1] == "wo"
    assert {t.name for t in mutant.graph.initializer} == {gemms[0].input[1], "wo"}  # wt itself dropped
