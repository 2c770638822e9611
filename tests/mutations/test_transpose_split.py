"""transpose-split (M264): one Transpose as two whose composition, in the spec's order, is its perm."""

from __future__ import annotations

import itertools

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.transpose_split import factor

from ._models import feeds, named

TRANSPOSES = """g (float[2, 3, 4, 5] x, float[3, 4] w) => (float[5, 4, 3, 2] y, float[3, 2, 5, 4] z, float[4, 3] v) {
    y = Transpose(x)
    z = Transpose<perm = [1, 0, 3, 2]>(x)
    v = Transpose<perm = [1, 0]>(w)
}"""


@pytest.mark.parametrize("rank", [3, 4, 5])
def test_every_permutation_factors_in_the_spec_order(rank):
    for p in itertools.permutations(range(rank)):
        q, r = factor(p)
        assert tuple(q[r[i]] for i in range(rank)) == p
        ident = tuple(range(rank))
        assert q != ident and r != ident
        if p != ident:  # the other order is another permutation: a merge that composes backwards shows
            assert tuple(r[q[i]] for i in range(rank)) != p


def test_rank_two_has_no_split():
    assert factor((1, 0)) is None and factor((0, 1)) is None


def test_split_computes_the_same_and_rank_two_is_left_alone():
    m = named(TRANSPOSES, opset=13)
    mutant, applied = REWRITES["transpose-split"].apply(m)
    assert list(applied.nodes) == ["n0", "n1"]  # n2 is rank 2
    verify_equivalent(m, mutant, feeds(m), "transpose-split")  # checker (full), strict inference, onnxruntime
    ops = [n.op_type for n in mutant.graph.node]
    assert ops.count("Transpose") == 5
    by_out = {n.output[0]: n for n in mutant.graph.node}
    outer = by_out["y"]
    inner = by_out[outer.input[0]]
    assert inner.input[0] == "x" and outer.name == "n0"  # the omitted perm (reversal) is split too


def test_the_other_order_is_a_different_tensor():
    """The pair's composition read backwards gives another tensor: a session of the wrong merge disagrees."""
    m = named(TRANSPOSES, opset=13)
    mutant, _ = REWRITES["transpose-split"].apply(m)
    by_out = {n.output[0]: n for n in mutant.graph.node}
    outer, inner = by_out["z"], by_out[by_out["z"].input[0]]
    q, r = list(inner.attribute[0].ints), list(outer.attribute[0].ints)
    x = np.arange(120, dtype=np.float32).reshape(2, 3, 4, 5)
    wrong = onnx.helper.make_model(
        onnx.helper.make_graph(
            [onnx.helper.make_node("Transpose", ["x"], ["z"], perm=[r[q[i]] for i in range(4)])],
            "wrong",
            [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, 4, 5])],
            [onnx.helper.make_tensor_value_info("z", onnx.TensorProto.FLOAT, None)],
        ),
        opset_imports=[onnx.helper.make_opsetid("", 13)],
    )
    right = ort.InferenceSession(mutant.SerializeToString(), providers=["CPUExecutionProvider"])
    got = right.run(["z"], {"x": x, "w": np.zeros((3, 4), np.float32)})[0]
    bad = ort.InferenceSession(wrong.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.testing.assert_array_equal(got, x.transpose(1, 0, 3, 2))
    assert bad.shape != got.shape or not np.array_equal(bad, got)


def test_only_selects_one_transpose():
    m = named(TRANSPOSES, opset=13)
    assert REWRITES["transpose-split"].edit(m, frozenset({"n1"})) == ["n1"]
    assert [n.op_type for n in m.graph.node].count("Transpose") == 4


def test_on_a_library_case():
    m = registry().get("fusion-matmul/transpose-matmul-r4").forms["common"].build()
    mutant, applied = REWRITES["transpose-split"].apply(m)
    assert applied.nodes
    verify_equivalent(m, mutant, feeds(m), "transpose-split")
