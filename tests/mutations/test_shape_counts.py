"""Issue 18.1: a constant count input equal to a static dim, rewritten as a shape expression;
verified by the gate, and a planted pass that only that rewrite catches."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from passcheck.mutations import REWRITES, mutation_subject, verify_equivalent

from ._models import feeds, named, run_planted

COUNTS = """g (float[N, 3, 4] x) => (float[N, 3, 3] v, int64[N, 3, 3] ix, float[N, 3, 2] s, int64[3] rg, float[N, 3, 4] e) {
    k = Constant<value = int64[1] {3}>()
    v, ix = TopK<axis = -1>(x, k)
    st = Constant<value = int64[1] {1}>()
    en = Constant<value = int64[1] {3}>()
    ax = Constant<value = int64[1] {2}>()
    s = Slice(x, st, en, ax)
    a0 = Constant<value = int64 {1}>()
    lim = Constant<value = int64 {4}>()
    rg = Range(a0, lim, a0)
    sh = Constant<value = int64[3] {1, 3, 4}>()
    e = Expand(x, sh)
}"""


@pytest.mark.parametrize("opset", [13, 18])
@pytest.mark.parametrize("rid", ["shape-derived-count", "shape-derived-count-slice"])
def test_counts_become_shape_expressions_and_pass_the_gate(rid, opset):
    m = named(COUNTS, opset=opset)
    mutant, applied = REWRITES[rid].apply(m)
    # TopK K=3, Slice end=3 (start 1 and axis 2 match no dim... 1 does not, 2 does not), Range limit=4, Expand [1, 3, 4]
    assert list(applied.nodes) == ["n1", "n5", "n8", "n10"]
    verify_equivalent(m, mutant, feeds(m), rid)
    ops = [n.op_type for n in mutant.graph.node]
    assert "Shape" in ops and ("Gather" in ops) == (rid == "shape-derived-count")
    topk = next(n for n in mutant.graph.node if n.op_type == "TopK")
    assert topk.input[1] not in {t.name for t in mutant.graph.initializer}
    # the replaced Constants nothing reads any more are gone; the one Slice still reads stays
    consts = {
        n.output[0] for n in mutant.graph.node if n.op_type == "Constant" and n.name in {f"n{i}" for i in range(11)}
    }
    assert consts == {"st", "ax", "a0"}


def test_only_selects_sites():
    m = named(COUNTS, opset=18)
    assert REWRITES["shape-derived-count"].edit(m, frozenset({"n1"})) == ["n1"]
    assert [n.op_type for n in m.graph.node][:4] == ["Shape", "Constant", "Gather", "TopK"]


def test_no_static_dim_equal_no_site():
    m = named(
        """g (float[N, 5] x) => (float[N, 3] v, int64[N, 3] i) {
        k = Constant<value = int64[1] {3}>()
        v, i = TopK(x, k)
    }""",
        opset=13,
    )
    assert REWRITES["shape-derived-count"].apply(m) is None


def test_topk_before_opset_10_keeps_k_an_attribute():
    m = named("""g (float[N, 3] x) => (float[N, 3] v, int64[N, 3] i) { v, i = TopK<k = 3>(x) }""", opset=9)
    assert REWRITES["shape-derived-count"].apply(m) is None


TOPK = """g (float[N, 4] x) => (float[N, 4] v, int64[N, 4] i, float[N, 4] y) {
    k = Constant<value = int64[1] {4}>()
    v, i = TopK(x, k)
    y = Relu(x)
}"""


def planted_topk_k_constant_only(model: onnx.ModelProto) -> onnx.ModelProto:
    """Resolves TopK's K through Identity to a Constant or initializer, but takes any K it cannot
    resolve so as 1 and rewrites it so (the bug a shape-derived K exposes)."""
    g = model.graph
    consts = {t.name for t in g.initializer} | {n.output[0] for n in g.node if n.op_type == "Constant"}
    for n in g.node:
        if n.op_type == "Identity" and n.input[0] in consts:
            consts.add(n.output[0])
    for n in list(g.node):
        if n.op_type == "TopK" and n.input[1] not in consts:
            one = onnx.helper.make_node(
                "Constant", [], [n.input[1] + "_assumed"], value=onnx.numpy_helper.from_array(np.array([1], np.int64))
            )
            n.input[1] = one.output[0]
            g.node.insert(list(g.node).index(n), one)
    return model


def test_planted_shape_derived_k_bug_is_caught_only_by_the_shape_count_forms():
    m = named(TOPK, opset=18)
    subject, applied = mutation_subject(m, "topk")
    assert {"shape-derived-count", "shape-derived-count-slice"} <= set(applied) and len(applied) >= 4
    cells = run_planted(subject, "planted:topk-k", planted_topk_k_constant_only)
    flagged = {c.form for c in cells if c.findings}
    assert flagged == {"shape-derived-count", "shape-derived-count-slice"}


def test_slice_spelling_before_opset_10_uses_slice_attributes():
    m = named(
        """g (float[N, 3] x) => (float[N, 9] y) {
        r = Constant<value = int64[2] {1, 3}>()
        y = Tile(x, r)
    }""",
        opset=9,
    )
    mutant, applied = REWRITES["shape-derived-count-slice"].apply(m)
    sl = next(n for n in mutant.graph.node if n.op_type == "Slice")
    assert len(sl.input) == 1 and {a.name for a in sl.attribute} == {"starts", "ends", "axes"}
    verify_equivalent(m, mutant, feeds(m), "shape-derived-count-slice")
