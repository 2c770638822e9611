"""``transpose-conjugate``: ops computed in a permuted layout, each site through the equivalence gate
(real onnx checker, real onnxruntime runs), the remapping checked against a planted wrong one."""

from __future__ import annotations

import mutation_models as M  # beside this file, loaded by conftest.py
import numpy as np
import onnx
import pytest

from passcheck.errors import PasscheckInternalError
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations import _conjugate_ops as ops
from passcheck.runtime import run_ort

R = REWRITES["transpose-conjugate"]

#: Conv, then one op of each family on its rank-4 result.
FAMILIES = lambda opset: M.named(  # noqa: E731
    """g (float[N, 3, 5, 5] x, float[N, 2, 3, 3] b) => (float[N, 2, 3, 3] y, float[N, 1, 3, 3] m,
          float[N, 4, 3, 3] c, float[N, 1, 3, 3] s1, float[N, 1, 3, 3] s2, int64[N, 3, 3] am,
          float[N, 2, 3] r0) {
    a = Conv(x, w)
    e = Sigmoid(a)
    h = Add(e, b)
    y = Softmax<axis = 1>(h)
    m = ReduceMean<axes = [1], keepdims = 1>(a)
    c = Concat<axis = 1>(a, b)
    s1, s2 = Split<axis = 1>(a)
    am = ArgMax<axis = 1, keepdims = 0>(a)
    r0 = ReduceMax<axes = [-1], keepdims = 0>(a)
}""",
    opset=opset,
    initializers=[M.W],
)
#: Axis inputs: Slice, Pad, Tile, CumSum (static), on a rank-3 value (reversed: axes 0 and 2 swap).
AXIS_INPUTS = lambda: M.named(  # noqa: E731
    """g (float[2, 3, 4] x) => (float[2, 3, 2] s, float[3, 3, 6] p, float[4, 3, 4] t, float[2, 3, 4] cs,
          float[2, 3, 2] sd) {
    st = Constant<value = int64[1] {1}>()
    en = Constant<value = int64[1] {3}>()
    ax = Constant<value = int64[1] {2}>()
    s = Slice(x, st, en, ax)
    pads = Constant<value = int64[6] {1, 0, 0, 0, 0, 2}>()
    p = Pad(x, pads)
    reps = Constant<value = int64[3] {2, 1, 1}>()
    t = Tile(x, reps)
    last = Constant<value = int32 {-1}>()
    cs = CumSum(x, last)
    st2 = Constant<value = int64[3] {0, 0, 1}>()
    en2 = Constant<value = int64[3] {2, 3, 3}>()
    sd = Slice(x, st2, en2)
}""",
    opset=18,
)
#: Opset 9: Slice-1 and Pad-2 take their axes and pads as attributes.
ATTRIBUTES = lambda: M.named(  # noqa: E731
    """g (float[2, 3, 4] x) => (float[2, 3, 2] s, float[2, 2, 4] sd, float[3, 3, 6] p) {
    s = Slice<starts = [1], ends = [3], axes = [2]>(x)
    sd = Slice<starts = [0, 1], ends = [2, 3]>(x)
    p = Pad<pads = [1, 0, 0, 0, 0, 2]>(x)
}""",
    opset=9,
)
QDQ = lambda: M.named(  # noqa: E731
    """g (float[2, 3, 4, 2] x) => (float[2, 3, 4, 2] y) {
    sc = Constant<value = float[3] {0.1, 0.2, 0.3}>()
    zp = Constant<value = uint8[3] {0, 10, 128}>()
    q = QuantizeLinear<axis = 1>(x, sc, zp)
    y = DequantizeLinear<axis = 1>(q, sc, zp)
}""",
    opset=13,
)


def _ops(model) -> list[str]:
    return [n.op_type for n in model.graph.node]


def test_layout_is_never_the_identity_and_inverts():
    for r in range(2, 7):
        lay = ops.layout(r)
        assert list(lay.p) != list(range(r))
        assert [lay.p[lay.inv[a]] for a in range(r)] == list(range(r))
    assert ops.layout(4).p == (0, 2, 3, 1)  # NCHW → NHWC


def test_unary_set_from_the_schemas():
    got = ops.unary_elementwise(21)
    assert {"Relu", "Sigmoid", "Cast", "IsInf", "Gelu", "HardSwish", "Not", "Erf"} <= got
    assert not got & {"Softmax", "LRN", "Flatten", "LpNormalization", "GlobalAveragePool", "Hardmax", "Dropout"}


def test_site_count_on_a_small_model():
    """Conv is not handled (its layout is in its semantics); every other node is a site."""
    labels = R.sites(FAMILIES(13))
    assert labels == ["n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"]
    assert R.sites(FAMILIES(11)) == ["n1", "n2", "n4", "n5", "n6", "n7", "n8"]  # Softmax-11 coerces to 2-D


@pytest.mark.parametrize(
    ("model", "labels"),
    [
        (lambda: FAMILIES(13), ["n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"]),
        (AXIS_INPUTS, ["n3", "n5", "n7", "n9", "n12"]),
        (QDQ, ["n2", "n3"]),
        (ATTRIBUTES, ["n0", "n1", "n2"]),
    ],
)
def test_each_site_and_all_at_once_pass_the_gate(model, labels):
    original = model()
    assert R.sites(original) == labels
    runs = M.feeds(original)
    for label in labels:
        mutant, applied = R.apply(original, [label])
        assert list(applied.nodes) == [label]
        assert "Transpose" in _ops(mutant)
        verify_equivalent(original, mutant, runs, f"transpose-conjugate@{label}")
    mutant, applied = R.apply(original)
    assert list(applied.nodes) == labels
    verify_equivalent(original, mutant, runs, "transpose-conjugate")


def test_elementwise_and_layout_ops_are_bit_exact_under_onnxruntime():
    """Transpose moves elements; elementwise, Softmax along one axis, Concat and Split see the same ones."""
    original = FAMILIES(13)
    mutant, _ = R.apply(original, ["n1", "n2", "n3", "n5", "n6"])
    feeds = M.feeds(original)[0]
    want, got = run_ort(original, feeds), run_ort(mutant, feeds)
    assert not want.error and not got.error
    for name in ("y", "c", "s1", "s2"):
        assert np.array_equal(want.outputs[name], got.outputs[name]), name


def test_the_new_values_are_unannotated_and_inferred():
    mutant, _ = R.apply(FAMILIES(13), ["n4"])
    assert len(mutant.graph.value_info) == 0
    inferred = onnx.shape_inference.infer_shapes(mutant, strict_mode=True)
    dims = {
        v.name: [d.dim_value or d.dim_param for d in v.type.tensor_type.shape.dim] for v in inferred.graph.value_info
    }
    assert dims["a_perm"] == ["N", 3, 3, 2]  # NHWC
    assert dims["m_perm"] == ["N", 3, 3, 1]


_UNMAPPED = {"axis": lambda self, a: a % self.r, "per_axis": lambda self, values: list(values)}


@pytest.mark.parametrize(
    ("model", "label", "plant"),
    [
        *((lambda: FAMILIES(13), label, "axis") for label in ("n3", "n4", "n5", "n6", "n7", "n8")),
        *((AXIS_INPUTS, label, "axis") for label in ("n3", "n9", "n12")),
        *((AXIS_INPUTS, label, "per_axis") for label in ("n5", "n7")),
        (QDQ, "n2", "axis"),
        *((ATTRIBUTES, label, "axis") for label in ("n0", "n1")),
        (ATTRIBUTES, "n2", "per_axis"),
    ],
)
def test_a_planted_unmapped_axis_is_caught(monkeypatch, model, label, plant):
    """Plant: an axis (or a per-axis list) left as the original's, not moved through the permutation.
    The gate refuses the mutant (a wrong shape, or wrong values)."""
    original = model()
    monkeypatch.setattr(ops.Layout, plant, _UNMAPPED[plant])
    mutant, _ = R.apply(original, [label])
    with pytest.raises(PasscheckInternalError, match="not equivalent"):
        verify_equivalent(original, mutant, M.feeds(original), f"transpose-conjugate@{label}")


def test_keepdims_zero_output_permutation():
    """ArgMax keepdims 0 on axis 1 of NCHW: NHWC result [N, H, W] is already in order (no Transpose back);
    ReduceMax over the last axis of rank 4: NHWC keeps [N, H, C] → back [N, C, H] by perm [0, 2, 1]."""
    lay = ops.layout(4)
    assert lay.dropped([1]) is None
    assert lay.dropped([-1]) == (0, 2, 1)
    mutant, _ = R.apply(FAMILIES(13), ["n8"])
    back = [n for n in mutant.graph.node if n.op_type == "Transpose" and n.output[0] == "r0"]
    assert [list(onnx.helper.get_attribute_value(a)) for a in back[0].attribute] == [[0, 2, 1]]
