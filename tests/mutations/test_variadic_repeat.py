"""``variadic-repeat`` (M152): Max/Min read their last operand again, a one-element constant as a
copy at another rank. Checked with the real equivalence gate (onnxruntime, shape inference) and on
onnxscript's own Min/Max-to-Clip rules, which read every constant operand."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import feeds, named

RID = "variadic-repeat"


def CLIPS():
    """Min(Max(x, lo), hi) with a scalar ``lo`` and a ``[1, 1]`` ``hi`` (y is [1, N, 4]), a Constant
    bound, a two-element bound and a rank-0 Max of scalars."""
    return named(
        """g (float[N, 4] x, float s) => (float[1, N, 4] y, float[N, 4] z, float[N, 4] w, float v) {
    a = Max(x, lo)
    y = Min(a, hi)
    c = Constant<value = float[1] {0.25}>()
    z = Max(x, c)
    w = Min(x, pair)
    v = Max(s, lo)
}""",
        opset=13,
        initializers=[
            tensor("lo", np.array(-0.5, np.float32)),
            tensor("hi", np.array([[0.5]], np.float32)),
            tensor("pair", np.array([0.1, 0.2, 0.3, 0.4], np.float32)),
        ],
    )


def _inputs(model: onnx.ModelProto) -> dict[str, list[str]]:
    return {n.name: list(n.input) for n in model.graph.node}


def _dims(model: onnx.ModelProto) -> dict[str, list[int]]:
    return {t.name: list(t.dims) for t in model.graph.initializer}


def test_copies_a_one_element_constant_at_another_rank_and_passes_the_gate():
    original = CLIPS()
    mutant, where = REWRITES[RID].apply(original)
    assert list(where.nodes) == ["n0", "n1", "n3", "n4", "n5"]
    ins, dims = _inputs(mutant), _dims(mutant)
    assert ins["n0"] == ["x", "lo", "lo_rank1"] and dims["lo_rank1"] == [1]  # scalar → [1] (output rank 2)
    assert ins["n1"] == ["a", "hi", "hi_rank0"] and dims["hi_rank0"] == []  # [1, 1] → scalar
    assert ins["n3"] == ["x", "c", "c_rank0"] and dims["c_rank0"] == []  # a Constant's tensor
    assert ins["n4"] == ["x", "pair", "pair"]  # more than one element: read again as is
    assert ins["n5"] == ["s", "lo", "lo"]  # rank-0 output: a [1] copy would change its shape
    verify_equivalent(original, mutant, feeds(original), RID)
    one, _ = REWRITES[RID].apply(original, ["n1"])
    assert _inputs(one)["n0"] == ["x", "lo"]
    verify_equivalent(original, one, feeds(original), RID)


def test_no_site_before_opset_8_or_outside_max_min():
    old = named("g (float[4] x) => (float[4] y) {\n    y = Max(x, x)\n}", opset=7)
    assert REWRITES[RID].apply(old) is None
    other = named("g (float[4] x, float[4] z) => (float[4] y) {\n    y = Sum(x, z)\n}", opset=13)
    assert REWRITES[RID].apply(other) is None


def test_onnxscript_min_max_clip_rule_meets_the_repeated_bound():
    """onnxscript 0.7.2's FuseMaxMinToClip rewrites the base to Clip with the same values; on the
    rewrite's form (a scalar bound beside its [1] copy) it raises while computing the bounds."""
    rewriter = pytest.importorskip("onnxscript.rewriter")
    base = named(
        """g (float[N, 4] x) => (float[N, 4] y) {
    a = Max(x, lo)
    y = Min(a, hi)
}""",
        opset=18,
        initializers=[tensor("lo", np.array(-0.5, np.float32)), tensor("hi", np.array(0.5, np.float32))],
    )
    fused = rewriter.rewrite(base)
    assert [n.op_type for n in fused.graph.node] == ["Clip"]
    verify_equivalent(base, fused, feeds(base), "onnxscript rewrite")
    mutant, _ = REWRITES[RID].apply(base)
    verify_equivalent(base, mutant, feeds(base), RID)
    with pytest.raises(Exception, match="inhomogeneous"):
        try:
            rewriter.rewrite(mutant)
        except Exception as e:  # PassError wraps the cause
            cause = e
            while cause.__cause__ is not None:
                cause = cause.__cause__
            raise cause from None
