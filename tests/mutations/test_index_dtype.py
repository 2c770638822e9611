"""Index and count inputs in int32 ↔ int64 (``index_dtype``): every site of both rewrites checked with the real
tools — onnx's checker with full_check, onnxruntime running both models (CPU, no optimization) with bit-equal
outputs, onnx shape inference (strict, with and without data propagation) typing every graph output as it
typed the original's — plus the sites the schemas rule out, and planted bugs (a wrapped index value, a
constraint shared with an output retyped) that the checks catch."""

from __future__ import annotations

import mutation_models as M  # beside this file, loaded by conftest.py
import numpy as np
import onnx
import pytest

from passcheck.errors import PasscheckInternalError
from passcheck.mutations import REWRITES, index_dtype, verify_equivalent
from passcheck.runtime import run_ort

I64_MAX, I64_MIN = "9223372036854775807", "-9223372036854775808"

#: Gather on computed (ArgMax) and static indices, GatherElements, ScatterElements, CumSum, Pad-18 axes,
#: Slice to the end (ends int64 max) and backwards (ends int64 min, step -1), and a shape chain: Slice of a
#: Shape whose result is Slice ends (computed) and a Reshape's shape (data propagation).
TEXT = f"""g (float[4, 6] x, float[3, 5] w) => (float[4, 4] y, float[2, 6] z, float[1, 2] ge, float[4, 6] sc,
    float[4, 6] c, float[4, 9] pd, float[4, 5] s1, float[4, 6] s2, float[3, 6] s3, float[3, 5] r) {{
    zero = Constant<value = int64[1] {{0}}>()
    k4 = Constant<value = int64[1] {{4}}>()
    am = ArgMax<axis=1, keepdims=0>(x)
    amk = Slice(am, zero, k4)
    y = Gather<axis=1>(x, amk)
    i2 = Constant<value = int64[2] {{0, -1}}>()
    z = Gather<axis=0>(x, i2)
    gi = Constant<value = int64[1, 2] {{5, 0}}>()
    ge = GatherElements<axis=1>(x, gi)
    upd = Constant<value = float[1, 2] {{7.0, 8.0}}>()
    sc = ScatterElements<axis=1>(x, gi, upd)
    ax = Constant<value = int64 {{1}}>()
    c = CumSum(x, ax)
    p = Constant<value = int64[2] {{1, 2}}>()
    one = Constant<value = int64[1] {{1}}>()
    pd = Pad(x, p, , one)
    big = Constant<value = int64[1] {{{I64_MAX}}}>()
    s1 = Slice(x, one, big, one)
    m1 = Constant<value = int64[1] {{-1}}>()
    small = Constant<value = int64[1] {{{I64_MIN}}}>()
    s2 = Slice(x, m1, small, one, m1)
    sh = Shape(w)
    k = Slice(sh, zero, one)
    s3 = Slice(x, zero, k, zero)
    kk = Concat<axis=0>(k, m1)
    r = Reshape(w, kk)
}}"""


def model(opset: int = 18) -> onnx.ModelProto:
    return M.named(TEXT, opset=opset)


def _output_types(m: onnx.ModelProto, data_prop: bool) -> dict[str, tuple]:
    inferred = onnx.shape_inference.infer_shapes(m, strict_mode=True, data_prop=data_prop)
    return {
        o.name: (o.type.tensor_type.elem_type, tuple(d.dim_value for d in o.type.tensor_type.shape.dim))
        for o in inferred.graph.output
    }


def assert_same_computation(original, mutant):
    """full_check accepts the mutant; shape inference (both ways) types its outputs as the original's;
    onnxruntime runs it bit-equal."""
    onnx.checker.check_model(mutant, full_check=True)
    for data_prop in (False, True):
        assert _output_types(mutant, data_prop) == _output_types(original, data_prop)
    for f in M.feeds(original):
        a, b = run_ort(original, f), run_ort(mutant, f)
        assert a.error is None and b.error is None, (a.error, b.error)
        for name, value in a.outputs.items():
            assert np.array_equal(b.outputs[name], value) and b.outputs[name].dtype == value.dtype, name


def _bound(m: onnx.ModelProto) -> dict[str, set[int]]:
    """Node name → the element types of its index-constraint inputs (after shape inference)."""
    from passcheck.mutations._shapes import known

    types = known(m)
    out = {}
    for n in m.graph.node:
        slots = [s for ss in index_dtype.index_constraints(n.op_type, 18).values() for s in ss]
        got = {types[n.input[s]].elem_type for s in slots if s < len(n.input) and n.input[s]}
        if got:
            out[n.name] = got
    return out


#: n15 (Pad-18 axes) only where onnx's own Pad inference takes int32 axes (test_pad_axes_follow_onnx_inference).
SITES = ["n3", "n4", "n6", "n8", "n10", "n12", "n17", "n20", "n22", "n23"]


def test_sites_are_the_nodes_with_index_constraints():
    m = model()
    assert REWRITES["index-int32"].sites(m) == SITES
    assert REWRITES["index-int64"].sites(m) == []
    assert set(_bound(m)) == {*SITES, "n15"}


def _onnx_pad_takes_int32_axes() -> bool:
    from onnx import helper, numpy_helper

    n = helper.make_node("Pad", ["x", "p", "", "a"], ["y"])
    types = {"x": helper.make_tensor_type_proto(1, [4, 6]), "p": helper.make_tensor_type_proto(7, [2])}
    types["a"] = helper.make_tensor_type_proto(6, [1])
    data = {
        "p": numpy_helper.from_array(np.array([1, 2]), "p"),
        "a": numpy_helper.from_array(np.array([1], np.int32), "a"),
    }
    try:
        onnx.shape_inference.infer_node_outputs(onnx.defs.get_schema("Pad", 18, ""), n, types, data)
    except onnx.shape_inference.InferenceError:
        return False
    return True


def test_pad_axes_follow_onnx_inference():
    """Pad-18 takes int32 axes (Tind), but onnx 1.23.2's Pad inference parses them as int64 only and the checker
    and onnxruntime's loader refuse the model: the node is a site exactly when onnx's inference takes it."""
    assert ("n15" in REWRITES["index-int32"].sites(model())) == _onnx_pad_takes_int32_axes()


@pytest.mark.parametrize("site", [None, *SITES])
def test_every_site_and_all_at_once_compute_the_same(site):
    original = model()
    mutant, applied = REWRITES["index-int32"].apply(original, None if site is None else [site])
    assert list(applied.nodes) == (SITES if site is None else [site])
    bound = _bound(mutant)
    for name in applied.nodes:
        assert bound[name] == {onnx.TensorProto.INT32}, name
    assert_same_computation(original, mutant)


def test_static_inputs_are_restored_computed_ones_cast():
    mutant, _ = REWRITES["index-int32"].apply(model(), ["n4", "n23"])
    nodes = {n.name: n for n in mutant.graph.node}
    made_by = {o: n for n in mutant.graph.node for o in n.output}
    assert made_by[nodes["n4"].input[1]].op_type == "Cast" and made_by[nodes["n4"].input[1]].input[0] == "amk"
    # static starts/axes re-stored; computed ends (k, a Slice of a Shape) read through a Cast by this Slice only
    starts, ends, axes = (made_by[x] for x in nodes["n23"].input[1:])
    assert (starts.op_type, ends.op_type, axes.op_type) == ("Constant", "Cast", "Constant")
    assert ends.input[0] == "k" and nodes["n24"].input[0] == "k" and nodes["n22"].input[1] == "zero"


def test_slice_ends_beyond_int32_are_clamped_other_values_must_fit():
    mutant, _ = REWRITES["index-int32"].apply(model(), ["n17", "n20"])
    consts = {
        n.output[0]: onnx.numpy_helper.to_array(n.attribute[0].t) for n in mutant.graph.node if n.op_type == "Constant"
    }
    nodes = {n.name: n for n in mutant.graph.node}
    assert consts[nodes["n17"].input[2]].tolist() == [2**31 - 1]
    assert consts[nodes["n20"].input[2]].tolist() == [-(2**31)]
    # a step does not clamp: int64 max as a Slice step keeps the node out
    stepped = M.named(
        f"""g (float[4, 6] x) => (float[4, 1] s) {{
    one = Constant<value = int64[1] {{1}}>()
    big = Constant<value = int64[1] {{{I64_MAX}}}>()
    s = Slice(x, one, big, one, big)
}}""",
        opset=18,
    )
    assert REWRITES["index-int32"].sites(stepped) == []


def test_the_inverse_restores_int64():
    original = model()
    mutant, _ = REWRITES["index-int32"].apply(original)
    back, applied = REWRITES["index-int64"].apply(mutant)
    assert list(applied.nodes) == REWRITES["index-int64"].sites(mutant) and len(applied.nodes) == len(SITES)
    assert all(v == {onnx.TensorProto.INT64} for v in _bound(back).values())
    assert_same_computation(original, back)


def test_constraints_come_from_the_schemas():
    """Gather's Tind, Slice's Tind (four inputs), CumSum's T2; Range's T types its output; Reshape's shape,
    TopK's K and Tile's repeats are int64 only; OneHot's T1/T2 take any numeric type."""
    assert index_dtype.index_constraints("Gather", 13) == {"Tind": (1,)}
    assert index_dtype.index_constraints("Slice", 13) == {"Tind": (1, 2, 3, 4)}
    assert index_dtype.index_constraints("Slice", 9) == {}
    assert index_dtype.index_constraints("CumSum", 14) == {"T2": (1,)}
    for op in ("Range", "Reshape", "TopK", "Tile", "OneHot", "Add"):
        assert index_dtype.index_constraints(op, 18) == {}, op


def test_a_wrapped_index_value_is_caught(monkeypatch):
    """Planted: int64 → int32 without clamping (Slice ends int64 max wraps to -1); the gate rejects it."""
    monkeypatch.setattr(index_dtype, "_restore", lambda values, to, clamp: values.astype(np.int32))
    original = model()
    mutant, _ = REWRITES["index-int32"].apply(original, ["n17"])
    with pytest.raises(PasscheckInternalError, match="not equivalent"):
        verify_equivalent(original, mutant, M.feeds(original), "index-int32@n17")
    with pytest.raises((AssertionError, onnx.shape_inference.InferenceError)):
        assert_same_computation(original, mutant)


def test_a_constraint_shared_with_an_output_is_caught(monkeypatch):
    """Planted: any constraint taking int32 and int64 is a site, outputs ignored (Range's T types its output);
    full_check rejects the retyped output."""
    monkeypatch.setattr(index_dtype, "_eligible", lambda allowed, name, outs: index_dtype._PAIR <= allowed)
    index_dtype.index_constraints.cache_clear()
    try:
        original = M.named(
            """g (float[4] x) => (int64[3] r) {
    a = Constant<value = int64 {0}>()
    b = Constant<value = int64 {3}>()
    d = Constant<value = int64 {1}>()
    r = Range(a, b, d)
}""",
            opset=18,
        )
        mutant, _ = REWRITES["index-int32"].apply(original)
        with pytest.raises(onnx.shape_inference.InferenceError, match="elem type differs"):
            assert_same_computation(original, mutant)
    finally:
        index_dtype.index_constraints.cache_clear()


def test_sequence_positions_and_split_sizes():
    """SequenceAt's position and SplitToSequence's split (constraint I) read beside a sequence-typed input."""
    original = M.named(
        """g (float[4, 6] x) => (float[4, 4] y) {
    sp = Constant<value = int64[2] {2, 4}>()
    s = SplitToSequence<axis=1>(x, sp)
    i = Constant<value = int64 {-1}>()
    y = SequenceAt(s, i)
}""",
        opset=18,
    )
    assert REWRITES["index-int32"].sites(original) == ["n1", "n3"]
    mutant, _ = REWRITES["index-int32"].apply(original)
    assert_same_computation(original, mutant)


def test_only_bindings_onnxruntime_has_a_cpu_kernel_for(monkeypatch):
    """Every index constraint of the installed onnxruntime's CPU kernels takes int32 (none to test against), so the
    registry is narrowed: with no int32 Gather kernel, the Gathers are no sites and the rest stay."""
    from passcheck.runtime import kernels

    real = kernels.has_cpu_kernel

    def no_int32_gather(domain, op, since_version, types=None):
        if op == "Gather" and "tensor(int32)" in (types or {}).values():
            return False
        return real(domain, op, since_version, types)

    monkeypatch.setattr(kernels, "has_cpu_kernel", no_int32_gather)
    assert REWRITES["index-int32"].sites(model()) == [s for s in SITES if s not in ("n4", "n6")]
