"""einsum-spelling / einsum-implicit (Operators.md Einsum-12) and squeeze-as-reshape /
unsqueeze-as-reshape / reshape-as-squeeze (Squeeze-13, Unsqueeze-13, Reshape-14): every mutant passes
the equivalence gate (full checker, onnxruntime against the original), is bit-equal under
onnxruntime where the op moves or sums nothing in another order, and keeps the output types onnx shape
inference gives; a wrong equation or a wrong shape planted in a mutant is refused by the gate."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from passcheck.cases.builders import parse
from passcheck.errors import PasscheckInternalError
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.registry import MODULES
from passcheck.runtime import run_ort

from ._models import feeds

#: N symbolic; MatMul float with and without batch axes on both sides, int32 MatMul, Transposes
#: (int64 too), ReduceSum(keepdims=0), an equal-shape Mul, Squeeze / Unsqueeze and a Reshape
#: that only inserts a 1.
GRAPH = """g (float[N, 3, 4] a, float[4, 5] b, float[N, 4, 2] bb, int32[3, 4] ia, int32[4, 2] ib, float[2, 3] p,
       float[2, 3] q, int64[2, 3] i) =>
      (float[N, 3, 5] y, float[N, 3, 2] yb, int32[3, 2] iy, float[4, N, 3] t, int64[3, 2] ti, float[3] r,
       float[2, 3] m, float[N, 1, 3, 4] u, float[N, 12] rs, float[N, 3, 4, 1] u2, float[3, 2] s3) {
  y = MatMul(a, b)
  yb = MatMul(a, bb)
  iy = MatMul(ia, ib)
  t = Transpose<perm = [2, 0, 1]>(a)
  ti = Transpose(i)
  ax = Constant<value = int64[2] {0, 2}>()
  r = ReduceSum<keepdims = 0>(a, ax)
  m = Mul(p, q)
  one = Constant<value = int64[1] {1}>()
  u = Unsqueeze(a, one)
  s = Squeeze(u, one)
  sh = Constant<value = int64[2] {0, 12}>()
  rs = Reshape(s, sh)
  sh2 = Constant<value = int64[4] {0, 3, 4, 1}>()
  u2 = Reshape(a, sh2)
  pt = Transpose(p)
  k = Unsqueeze(pt, one)
  s3 = Squeeze(k)
}"""

RIDS = ["einsum-spelling", "einsum-implicit", "squeeze-as-reshape", "unsqueeze-as-reshape", "reshape-as-squeeze"]

#: Sites each rewrite must find in GRAPH (node labels), so that a rewrite applying nowhere fails.
SITES = {
    "einsum-spelling": {
        "#0:MatMul",
        "#1:MatMul",
        "#2:MatMul",
        "#3:Transpose",
        "#4:Transpose",
        "#6:ReduceSum",
        "#7:Mul",
        "#15:Transpose",
    },
    "einsum-implicit": {"#0:MatMul", "#1:MatMul", "#2:MatMul", "#3:Transpose", "#4:Transpose", "#15:Transpose"},
    "squeeze-as-reshape": {"#10:Squeeze", "#17:Squeeze"},
    "unsqueeze-as-reshape": {"#9:Unsqueeze", "#16:Unsqueeze"},
    "reshape-as-squeeze": {"#14:Reshape"},
}

#: Outputs whose values are computed by moving elements only (or by integer arithmetic): bit-equal.
EXACT = {"iy", "t", "ti", "m", "u", "rs", "u2", "s3"}


@pytest.fixture(scope="module")
def base():
    m = parse(GRAPH, opset=17)
    onnx.checker.check_model(m, full_check=True)
    return m, feeds(m)


def _types(m: onnx.ModelProto) -> dict[str, onnx.TypeProto]:
    g = onnx.shape_inference.infer_shapes(m, strict_mode=True).graph
    return {v.name: v.type for v in [*g.value_info, *g.output]}


def test_registered():
    assert {"passcheck.mutations.einsum_forms", "passcheck.mutations.squeeze_reshape"} <= set(MODULES)


@pytest.mark.parametrize("rid", RIDS)
def test_mutants_pass_the_gate_and_keep_values_and_types(rid, base):
    m, f = base
    got = REWRITES[rid].apply(m)
    assert got is not None
    mutant, applied = got
    assert set(applied.nodes) == SITES[rid]
    verify_equivalent(m, mutant, f, rid)
    for feed in f:
        a, b = run_ort(m, feed), run_ort(mutant, feed)
        assert not a.error and not b.error
        for name in EXACT:
            np.testing.assert_array_equal(b.outputs[name], a.outputs[name], err_msg=name)
    before, after = _types(m), _types(mutant)
    for name, t in before.items():
        if name in after:
            assert after[name] == t, name
    for site in applied.nodes:  # one site alone
        one = REWRITES[rid].apply(m, [site])
        assert one is not None and one[1].nodes == (site,)
        verify_equivalent(m, one[0], f, f"{rid}@{site}")


def test_einsum_equations(base):
    got = {
        n.output[0]: onnx.helper.get_attribute_value(n.attribute[0]).decode()
        for rid in ("einsum-spelling",)
        for n in REWRITES[rid].apply(base[0])[0].graph.node
        if n.op_type == "Einsum"
    }
    assert got["y"] == "...ij,jk->...ik" and got["yb"] == "...ij,...jk->...ik" and got["iy"] == "ij,jk->ik"
    assert got["t"] == "abc->cab" and got["r"] == "abc->b" and got["m"] == "ab,ab->ab"
    implicit = {
        n.output[0]: onnx.helper.get_attribute_value(n.attribute[0]).decode()
        for n in REWRITES["einsum-implicit"].apply(base[0])[0].graph.node
        if n.op_type == "Einsum"
    }
    assert implicit["t"] == "bca" and implicit["yb"] == "...ij,...jk" and "->" not in "".join(implicit.values())


def test_batch_axes_of_different_counts_are_left_alone():
    """onnx Einsum inference refuses '...' standing for different axis counts: no site there."""
    m = parse("g (float[2, 3, 4] a, float[5, 2, 4, 6] b) => (float[5, 2, 3, 6] y) { y = MatMul(a, b) }", opset=17)
    assert REWRITES["einsum-spelling"].apply(m) is None


def test_below_opset_12_no_einsum():
    m = parse("g (float[3, 4] a) => (float[4, 3] t) { t = Transpose(a) }", opset=11)
    assert REWRITES["einsum-spelling"].apply(m) is None


def _plant(model: onnx.ModelProto, op: str, edit) -> onnx.ModelProto:
    bad = onnx.ModelProto()
    bad.CopyFrom(model)
    n = next(n for n in bad.graph.node if n.op_type == op)
    edit(bad, n)
    return bad


def test_gate_refuses_a_wrong_equation():
    m = parse("g (float[3, 3] a) => (float[3, 3] t) { t = Transpose(a) }", opset=17)
    f = feeds(m)
    mutant = REWRITES["einsum-spelling"].apply(m)[0]
    verify_equivalent(m, mutant, f, "einsum-spelling")

    def same_letters(_, n):
        n.attribute[0].s = b"ab->ab"  # right shape, wrong layout

    with pytest.raises(PasscheckInternalError, match="differs"):
        verify_equivalent(m, _plant(mutant, "Einsum", same_letters), f, "planted")


def test_gate_refuses_a_wrong_shape(base):
    m, f = base
    mutant = REWRITES["unsqueeze-as-reshape"].apply(m, ["#9:Unsqueeze"])[0]

    def swapped(g, n):
        c = next(c for c in g.graph.node if c.output[0] == n.input[1])
        c.attribute[0].t.CopyFrom(onnx.helper.make_tensor("", onnx.TensorProto.INT64, [4], [0, 1, 4, 3]))

    with pytest.raises(PasscheckInternalError):
        verify_equivalent(m, _plant(mutant, "Reshape", swapped), f, "planted")


#: Found by these rewrites (onnxruntime 1.32.0 tools/symbolic_shape_infer.py _infer_Einsum): without
#: '->' it keeps the once-appearing letters in order of appearance, not alphabetical (Einsum-12);
#: a '...' in the output takes its dims from the last operand's shape, whichever holds the '...'.
SYMBOLIC = [
    ("einsum-implicit", "g (float[N, 2, 3] x) => (float[3, 2, N] z) { z = Transpose(x) }"),
    ("einsum-spelling", "g (float[N, 4, 8] x, float[8, 6] w) => (float[N, 4, 6] y) { y = MatMul(x, w) }"),
]


@pytest.mark.parametrize(("rid", "graph"), SYMBOLIC, ids=[r for r, _ in SYMBOLIC])
def test_symbolic_shape_infer_einsum_findings(rid, graph):
    from passcheck.api import check_model

    m = parse(graph, opset=13)
    mutant = REWRITES[rid].apply(m)[0]
    verify_equivalent(m, mutant, feeds(m), rid)
    report = check_model(m, ["ort:symbolic-shape-infer"], forms={rid: mutant}, isolation=False)
    found = {c.form for c in report.cells for f in c.findings if f.kind == "annotation-violated"}
    assert found == {rid}, [(c.form, [f.message for f in c.findings]) for c in report.cells]


def test_no_int64_constant_below_opset_9():
    """Constant-1 takes float types only: below opset 9 the shape cannot be an int64 Constant."""
    m = parse("g (float[N, 3] x) => (float[N, 1, 3] y) { y = Unsqueeze<axes = [1]>(x) }", opset=8)
    assert REWRITES["unsqueeze-as-reshape"].apply(m) is None
    m9 = parse("g (float[N, 3] x) => (float[N, 1, 3] y) { y = Unsqueeze<axes = [1]>(x) }", opset=9)
    verify_equivalent(m9, REWRITES["unsqueeze-as-reshape"].apply(m9)[0], feeds(m9), "unsqueeze-as-reshape")


@pytest.mark.parametrize("rid", ["squeeze-as-reshape", "unsqueeze-as-reshape"])
def test_reshape_as_squeeze_takes_the_reshape_back(rid, base):
    """The inverse finds the Reshape the rewrite wrote and gives back the op it replaced."""
    m, f = base
    site = sorted(SITES[rid])[0]
    mutant = REWRITES[rid].apply(m, [site])[0]
    index = int(site[1:].split(":")[0])
    assert mutant.graph.node[index + 1].op_type == "Reshape"  # after its shape Constant
    back = REWRITES["reshape-as-squeeze"].apply(mutant, [f"#{index + 1}:Reshape"])
    assert back is not None
    assert back[0].graph.node[index + 1].op_type == site.split(":")[1]
    verify_equivalent(m, back[0], f, f"{rid}+reshape-as-squeeze")


def test_symbolic_shape_infer_crashes_on_squeeze_as_reshape_to_a_scalar():
    """Found by squeeze-as-reshape (onnxruntime 1.32.0 symbolic_shape_infer): a dim squeezed to a scalar
    by Reshape(d, []) and read by Add / Range makes it raise (TypeError in _compute_on_sympy_data;
    an AssertionError in as_scalar on fusion-gqa/llama), where the Squeeze spelling is inferred."""
    from passcheck.api import check_model

    m = parse(
        """g (float[N, 3] x) => (int64[M] r) {
          s = Shape<start = 0, end = 1>(x)
          zero = Constant<value = int64[1] {0}>()
          n = Squeeze(s, zero)
          two = Constant<value = int64 {2}>()
          lim = Add(n, two)
          one = Constant<value = int64 {1}>()
          r = Range(n, lim, one)
        }""",
        opset=17,
    )
    mutant = REWRITES["squeeze-as-reshape"].apply(m)[0]
    verify_equivalent(m, mutant, feeds(m), "squeeze-as-reshape")
    report = check_model(m, ["ort:symbolic-shape-infer"], forms={"squeeze-as-reshape": mutant}, isolation=False)
    rejected = {c.form for c in report.cells for f in c.findings if f.kind == "rejected"}
    assert rejected == {"squeeze-as-reshape"}, [(c.form, [f.message for f in c.findings]) for c in report.cells]


#: Mul-14 broadcasting spelled in Einsum-12: a scalar operand gets an empty term, a vector of the other's
#: static trailing dims the trailing letters; a size-1 dim that broadcasts has no letter spelling.
BROADCAST = """g (float[N, 3, 4] a, float[4] v, float s, float[2, 3] p, float[1, 3] q) =>
      (float[N, 3, 4] y, float[N, 3, 4] z, float[2, 3] w) {
  y = Mul(a, v)
  z = Mul(s, a)
  w = Mul(p, q)
}"""


def test_mul_with_a_broadcast_operand_as_einsum():
    m = parse(BROADCAST, opset=17)
    mutant, applied = REWRITES["einsum-spelling"].apply(m)
    assert set(applied.nodes) == {"#0:Mul", "#1:Mul"}  # not the size-1 broadcast
    got = {
        n.output[0]: onnx.helper.get_attribute_value(n.attribute[0]).decode()
        for n in mutant.graph.node
        if n.op_type == "Einsum"
    }
    assert got == {"y": "abc,c->abc", "z": ",abc->abc"}
    f = feeds(m)
    verify_equivalent(m, mutant, f, "einsum-spelling")  # full checker, onnxruntime against Mul
    for feed in f:
        a, b = run_ort(m, feed), run_ort(mutant, feed)
        np.testing.assert_array_equal(b.outputs["z"], a.outputs["z"])  # one product per element
    before, after = _types(m), _types(mutant)
    assert {k: after[k] for k in ("y", "z")} == {k: before[k] for k in ("y", "z")}
    from passcheck.oracles.conformance import evaluate

    assert not evaluate(mutant).violations  # the empty term is a rank-0 operand's (spec_rules.einsum_equation)
