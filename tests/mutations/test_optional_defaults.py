"""optional-input-default-explicit / -omitted: each finds its sites, its mutants pass the equivalence
gate (full checker, real onnxruntime, real shape inference of the outputs), one site alone passes
too, the inverse undoes it, and a wrong default (a bias of ones, an int8 zero point where omission
means uint8) is rejected by the same gate."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from passcheck.cases.builders import tensor
from passcheck.errors import PasscheckInternalError
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import feeds, named

RNG = np.random.default_rng(13)


def _f32(name, *shape):
    return tensor(name, RNG.standard_normal(shape).astype(np.float32))


def CONVS():
    return named(
        """g (float[N, 3, 5, 5] x, float[4, 6] v) => (float[N, 2, 3, 3] a, float[N, 2, 7, 7] b, float[4, 5] c,
            float[N, 2, 3, 3] d, float[4, 5] e) {
        a = Conv(x, w)
        b = ConvTranspose(x, wt)
        c = Gemm<transB = 1>(v, gb)
        d = Conv(x, w, zb)
        e = Gemm(v, gb2, zc)
    }""",
        opset=13,
        initializers=[
            _f32("w", 2, 3, 3, 3),
            _f32("wt", 3, 2, 3, 3),
            _f32("gb", 5, 6),
            _f32("gb2", 6, 5),
            tensor("zb", np.zeros(2, np.float32)),
            tensor("zc", np.zeros((1, 5), np.float32)),
        ],
    )


def QDQ():
    return named(
        """g (float[1, 3, 5, 5] x) => (float[1, 3, 5, 5] a, float[1, 3, 5, 5] b, uint8[1, 2, 3, 3] c) {
        q = QuantizeLinear(x, s)
        a = DequantizeLinear(q, s)
        q2 = QuantizeLinear(x, s, z)
        b = DequantizeLinear(q2, s, z)
        c = QLinearConv(q, s, z, w, ws, z, s, z)
    }""",
        opset=13,
        initializers=[
            tensor("s", np.float32(0.05)),
            tensor("z", np.uint8(0)),
            tensor("w", RNG.integers(0, 255, (2, 3, 3, 3)).astype(np.uint8)),
            tensor("ws", np.float32(0.01)),
        ],
    )


def SLOTS():
    return named(
        """g (float[2, 3, 4] x, float[1, 2, 4, 4] im) => (float[2, 3, 4] a, float[2, 3, 4] b, float[2, 5, 6] c,
            float[1, 2, 8, 8] d, float[2, 3, 4] e, float[2, 3, 4] f) {
        a = LayerNormalization(x, sc)
        b = Dropout(x)
        c = Pad(x, pads)
        d = Resize<mode = "nearest">(im, , scales)
        e = LayerNormalization(x, sc, zb)
        f = Dropout(x, ratio, no)
    }""",
        opset=18,
        initializers=[
            _f32("sc", 4),
            tensor("zb", np.zeros(4, np.float32)),
            tensor("pads", np.array([0, 1, 1, 0, 1, 1], np.int64)),
            tensor("scales", np.array([1, 1, 2, 2], np.float32)),
            tensor("ratio", np.float32(0.1)),
            tensor("no", np.bool_(False)),
        ],
    )


def RNNS():
    return named(
        """g (float[5, 2, 3] x) => (float[5, 2, 2, 4] a, float[5, 1, 2, 4] b, float[1, 2, 4] c) {
        a = RNN<hidden_size = 4, direction = "bidirectional">(x, rw, rr)
        b = GRU<hidden_size = 4>(x, gw, gr)
        y, c = LSTM<hidden_size = 4>(x, lw, lr)
    }""",
        opset=14,
        initializers=[
            _f32("rw", 2, 4, 3),
            _f32("rr", 2, 4, 4),
            _f32("gw", 1, 12, 3),
            _f32("gr", 1, 12, 4),
            _f32("lw", 1, 16, 3),
            _f32("lr", 1, 16, 4),
        ],
    )


CASES = [
    ("optional-input-default-explicit", CONVS, ["n0", "n1", "n2"]),
    ("optional-input-default-omitted", CONVS, ["n3", "n4"]),
    ("optional-input-default-explicit", QDQ, ["n0", "n1", "n4"]),
    ("optional-input-default-omitted", QDQ, ["n2", "n3"]),
    ("optional-input-default-explicit", SLOTS, ["n0", "n1", "n2", "n3"]),
    ("optional-input-default-omitted", SLOTS, ["n4", "n5"]),
    ("optional-input-default-empty", CONVS, ["n3", "n4"]),
    ("optional-input-default-empty", QDQ, ["n2", "n3"]),
    ("optional-input-default-empty", SLOTS, ["n4", "n5"]),
    ("optional-input-default-explicit", RNNS, ["n0", "n1", "n2"]),
]


@pytest.mark.parametrize(("rid", "build", "sites"), CASES, ids=[f"{r[15:]}-{b.__name__}" for r, b, _s in CASES])
def test_rewrite_finds_its_sites_and_passes_the_gate(rid, build, sites):
    original = build()
    mutant, applied = REWRITES[rid].apply(original)
    assert list(applied.nodes) == sites
    onnx.checker.check_model(mutant, full_check=True)
    verify_equivalent(original, mutant, feeds(original), rid)
    inferred = onnx.shape_inference.infer_shapes(mutant, strict_mode=True).graph.output
    assert all(o.type.tensor_type.HasField("shape") for o in inferred)
    one, _ = REWRITES[rid].apply(original, [sites[-1]])
    verify_equivalent(original, one, feeds(original), rid)
    back = REWRITES[REWRITES[rid].inverse].apply(mutant)
    assert back is not None and set(sites) <= set(back[1].nodes)
    verify_equivalent(original, back[0], feeds(original), REWRITES[rid].inverse)


def _retype(model, name: str, array: np.ndarray) -> onnx.ModelProto:
    from onnx import numpy_helper

    for t in model.graph.initializer:
        if t.name == name:
            t.CopyFrom(numpy_helper.from_array(array, name))
    return model


@pytest.mark.parametrize(
    ("build", "site", "wrong"),
    [
        (CONVS, "n0", np.ones(2, np.float32)),  # a bias of ones, not the zero bias omission means
        (QDQ, "n0", np.int8(0)),  # QuantizeLinear without a zero point means uint8, not int8
        (RNNS, "n2", np.full(2, 4, np.int32)),  # sequence_lens shorter than seq_length 5
    ],
    ids=["conv-bias-ones", "quantize-int8-zero-point", "lstm-short-sequences"],
)
def test_a_wrong_default_fails_the_gate(build, site, wrong):
    """The gate the rewrite is held to sees a wrong default: the explicit mutant with its first new
    tensor replaced by ``wrong`` is rejected (so a row building that value would be caught)."""
    original = build()
    mutant, _ = REWRITES["optional-input-default-explicit"].apply(original, [site])
    made = [t.name for t in mutant.graph.initializer if t.name not in {i.name for i in original.graph.initializer}]
    slot = {"n0": 2, "n2": 4}[site]
    node = next(n for n in mutant.graph.node if n.name == site)
    assert node.input[slot] in made
    with pytest.raises(PasscheckInternalError):
        verify_equivalent(original, _retype(mutant, node.input[slot], wrong), feeds(original), "planted")


def test_quantize_zero_point_follows_output_dtype():
    """QuantizeLinear-21 with output_dtype int8 and no zero point: the explicit zero point is int8 (the
    omission means output_dtype's 0), and an int8 zero is omitted again."""
    m = named(
        """g (float[2, 3] x) => (float[2, 3] y) {
        q = QuantizeLinear<output_dtype = 3>(x, s)
        y = DequantizeLinear(q, s)
    }""",
        opset=21,
        initializers=[tensor("s", np.float32(0.1))],
    )
    mutant, applied = REWRITES["optional-input-default-explicit"].apply(m)
    assert list(applied.nodes) == ["n0", "n1"]
    zps = {t.name: t.data_type for t in mutant.graph.initializer}
    assert [zps[n.input[2]] for n in mutant.graph.node] == [onnx.TensorProto.INT8, onnx.TensorProto.INT8]
    verify_equivalent(m, mutant, feeds(m), "optional-input-default-explicit")


def test_empty_keeps_the_trailing_slot_that_omitted_drops():
    """IR.md §Optional Inputs and Outputs: an absent optional input is left off the end or written as "".
    ``-empty`` writes the second spelling where ``-omitted`` writes the first: a Conv's zero bias and an int8
    zero point 0 of a QuantizeLinear-21 with output_dtype int8 (what its omission means) become a kept
    trailing "", the tensors go, the numbers and the inferred output types stay."""
    m = named(
        """g (float[1, 3, 4, 4] x) => (float[1, 2, 2, 2] y) {
        c = Conv(x, w, zb)
        q = QuantizeLinear<output_dtype = 3>(c, s, zp)
        y = DequantizeLinear(q, s, zp)
    }""",
        opset=21,
        initializers=[
            _f32("w", 2, 3, 3, 3),
            tensor("zb", np.zeros(2, np.float32)),
            tensor("s", np.float32(0.1)),
            tensor("zp", np.int8(0)),
        ],
    )
    mutant, applied = REWRITES["optional-input-default-empty"].apply(m)
    assert list(applied.nodes) == ["n0", "n1", "n2"]
    assert [list(n.input) for n in mutant.graph.node] == [["x", "w", ""], ["c", "s", ""], ["q", "s", ""]]
    assert {t.name for t in mutant.graph.initializer} == {"w", "s"}
    onnx.checker.check_model(mutant, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(mutant, strict_mode=True)
    q = next(v for v in inferred.graph.value_info if v.name == "q")
    assert q.type.tensor_type.elem_type == onnx.TensorProto.INT8  # output_dtype decides it, as before
    verify_equivalent(m, mutant, feeds(m), "optional-input-default-empty")
    dropped, _ = REWRITES["optional-input-default-omitted"].apply(m)
    assert [list(n.input) for n in dropped.graph.node] == [["x", "w"], ["c", "s"], ["q", "s"]]
    # without output_dtype an int8 zero point is not what the QuantizeLinear's omission means (uint8):
    # it stays; the DequantizeLinear's is (x's type), so only that one goes
    off = named(
        """g (float[2, 3] x) => (float[2, 3] y) {
        q = QuantizeLinear(x, s, zp)
        y = DequantizeLinear(q, s, zp)
    }""",
        opset=21,
        initializers=[tensor("s", np.float32(0.1)), tensor("zp", np.int8(0))],
    )
    kept, applied = REWRITES["optional-input-default-empty"].apply(off)
    assert list(applied.nodes) == ["n1"]
    assert [list(n.input) for n in kept.graph.node] == [["x", "s", "zp"], ["q", "s", ""]]


def test_batchwise_layout_states_follow_the_layout():
    """layout = 1 (RNN/GRU/LSTM-14): initial_h is [batch, num_directions, hidden] and sequence_lens
    counts the second dim of X. onnxruntime does not run batchwise recurrences, so the full checker and
    strict shape inference judge the mutant (same output types as the original)."""
    m = named(
        """g (float[2, 5, 3] x) => (float[2, 5, 1, 4] y) {
        y = GRU<hidden_size = 4, layout = 1>(x, gw, gr)
    }""",
        opset=14,
        initializers=[_f32("gw", 1, 12, 3), _f32("gr", 1, 12, 4)],
    )
    mutant, _ = REWRITES["optional-input-default-explicit"].apply(m)
    onnx.checker.check_model(mutant, full_check=True)
    shapes = {t.name: tuple(t.dims) for t in mutant.graph.initializer}
    node = mutant.graph.node[0]
    assert [shapes[x] for x in node.input[3:6]] == [(1, 24), (2,), (2, 1, 4)]
    lens = next(t for t in mutant.graph.initializer if t.name == node.input[4])
    assert onnx.numpy_helper.to_array(lens).tolist() == [5, 5]
    got = onnx.shape_inference.infer_shapes(mutant, strict_mode=True).graph.output
    assert got[0].type == onnx.shape_inference.infer_shapes(m).graph.output[0].type


def test_symbolic_batch_writes_only_the_batch_free_defaults():
    """With X: [5, N, 3] the LSTM's B [1, 32] and P [1, 12] are static, sequence_lens and the initial
    states ([N], [1, N, 4]) are not: only B and P are written out."""
    m = named(
        """g (float[5, N, 3] x) => (float[1, N, 4] h) {
        y, h = LSTM<hidden_size = 4>(x, lw, lr)
    }""",
        opset=14,
        initializers=[_f32("lw", 1, 16, 3), _f32("lr", 1, 16, 4)],
    )
    mutant, _ = REWRITES["optional-input-default-explicit"].apply(m)
    node = mutant.graph.node[0]
    shapes = {t.name: tuple(t.dims) for t in mutant.graph.initializer}
    assert [shapes.get(x) for x in node.input[3:]] == [(1, 32), None, None, None, (1, 12)]
    verify_equivalent(m, mutant, feeds(m), "optional-input-default-explicit")


def test_integer_defaults_below_opset_9_are_initializers():
    """Constant-1 holds float types only: at opset 7 an RNN whose weights are graph inputs gets its int32
    sequence_lens as an initializer (IR >= 4; left omitted at IR 3, where an initializer is also a graph
    input), its float B and initial_h as Constants, and the full checker accepts both."""
    m = named(
        """g (float[5, 2, 3] x, float[1, 4, 3] w, float[1, 4, 4] r) => (float[1, 2, 4] h) {
        y, h = RNN<hidden_size = 4>(x, w, r)
    }""",
        opset=7,
    )
    assert m.ir_version < 4
    old, _ = REWRITES["optional-input-default-explicit"].apply(m)
    m.ir_version = 4
    new, _ = REWRITES["optional-input-default-explicit"].apply(m)
    for mutant, lens in ((old, []), (new, [new.graph.node[-1].input[4]])):
        onnx.checker.check_model(mutant, full_check=True)
        node = mutant.graph.node[-1]
        assert [t.name for t in mutant.graph.initializer] == lens and bool(node.input[4]) == bool(lens)
        assert {n.output[0] for n in mutant.graph.node[:-1]} == {node.input[3], node.input[5]}
        verify_equivalent(m, mutant, feeds(m), "optional-input-default-explicit")
