"""Session 22's gaps, built: the sign of static GatherElements / ScatterElements / GatherND / OneHot
indices, and the typed (int32_data) spelling of bfloat16, float8 and the packed 4-bit types. Each
rewrite finds its sites (and not where the spec's condition fails), its mutant passes the equivalence
gate (real onnxruntime, real shape inference), one site alone passes, its inverse undoes it."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.gaps import index_rows, storage_rows

from ._models import assert_sites_gate_and_inverse, feeds, named


def INDICES(negative: bool = False):
    """n0 GatherElements on a static axis, n1 GatherND (batch_dims 1), n2 OneHot, n3 ScatterElements;
    n4 GatherElements on the symbolic axis N (left alone); n5 OneHot with float indices (left alone)."""
    ge = np.array([[[0, 3, 1, 2]] * 3] * 2, np.int64)
    nd = np.array([[[2], [0]], [[1], [2]]], np.int64)  # per batch: rows of data[b] ([3, 4])
    oh = np.array([0, 2, 4], np.int64)
    se = np.array([[[1, 0]] * 3] * 2, np.int64)
    if negative:
        ge, nd, oh, se = ge - 4, nd - 3, oh - 5, se - 4
    return named(
        """g (float[2, 3, 4] x, float[N, 3] z) => (float[2, 3, 4] a, float[2, 2, 4] b, float[3, 5] c,
        float[2, 3, 4] d, float[1, 3] e, float[3, 5] f) {
        a = GatherElements<axis = -1>(x, ge)
        b = GatherND<batch_dims = 1>(x, nd)
        c = OneHot(oh, depth, vals)
        d = ScatterElements<axis = 2>(x, se, upd)
        e = GatherElements(z, zi)
        f = OneHot(ohf, depthf, vals)
    }""",
        opset=18,
        initializers=[
            tensor("ge", ge),
            tensor("nd", nd),
            tensor("oh", oh),
            tensor("depth", np.array(5, np.int64)),
            tensor("vals", np.array([0.0, 1.0], np.float32)),
            tensor("se", se),
            tensor("upd", np.full((2, 3, 2), -7.0, np.float32)),
            tensor("zi", np.array([[0, 0, 0]], np.int64)),
            tensor("ohf", np.array([0.0, 1.0, 3.0], np.float32)),
            tensor("depthf", np.array(5.0, np.float32)),
        ],
    )


def INDICES_OPSET_10():
    return named(
        """g (float[2, 3] x) => (float[3, 5] c) {
        c = OneHot(oh, depth, vals)
        }""",
        opset=10,
        initializers=[
            tensor("oh", np.array([0, 2, 4], np.int64)),
            tensor("depth", np.array(5, np.int64)),
            tensor("vals", np.array([0.0, 1.0], np.float32)),
        ],
    )


def LOW_PRECISION():
    """Raw-stored initializers of the types whose typed spelling is a bit pattern (bfloat16, float8) or
    packed (int4, uint4, odd element counts included) in int32_data."""
    T = onnx.TensorProto
    vals = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
    m = named(
        """g (float[2, 3] x) => (float[2, 3] a, float[2, 3] b, float[2, 3] c, float[2, 3] d, float[5] e) {
        wb = Cast<to = 1>(w_bf16)
        a = Add(x, wb)
        f8 = DequantizeLinear(w_f8, s)
        b = Mul(x, f8)
        i4 = DequantizeLinear(w_i4, s)
        c = Add(x, i4)
        d = DequantizeLinear<axis = 1>(w_u4, s3, zp3)
        e = DequantizeLinear(w_u4odd, s)
    }""",
        opset=21,
        initializers=[
            numpy_helper.from_array(vals.astype(ml_dtypes.bfloat16), "w_bf16"),
            numpy_helper.from_array(vals.astype(ml_dtypes.float8_e4m3fn), "w_f8"),
            numpy_helper.from_array(vals.astype(ml_dtypes.int4), "w_i4"),
            numpy_helper.from_array(np.array([[1, 2, 15], [0, 7, 9]]).astype(ml_dtypes.uint4), "w_u4"),
            numpy_helper.from_array(np.array([3, 1, 4, 1, 5]).astype(ml_dtypes.uint4), "w_u4odd"),
            tensor("s", np.array(0.5, np.float32)),
            tensor("s3", np.array([0.5, 1.0, 2.0], np.float32)),
            numpy_helper.from_array(np.array([8, 0, 1]).astype(ml_dtypes.uint4), "zp3"),
        ],
    )
    assert all(t.HasField("raw_data") for t in m.graph.initializer) and m.graph.initializer[0].data_type == T.BFLOAT16
    return m


def _non_zero_inputs(model):
    """Feeds with a deterministic non-zero pattern, so a wrong element shows in every output."""
    return {k: v + np.arange(v.size, dtype=v.dtype).reshape(v.shape) + 1 for k, v in feeds(model)[0].items()}


CASES = [
    ("element-indices-negative", lambda: INDICES(False), ["n0", "n1", "n2", "n3"]),  # n4: axis N; n5: float
    ("element-indices-positive", lambda: INDICES(True), ["n0", "n1", "n2", "n3"]),
]


@pytest.mark.parametrize(("rid", "build", "sites"), CASES, ids=[r for r, _b, _s in CASES])
def test_index_sign_finds_its_sites_and_passes_the_gate(rid, build, sites):
    assert_sites_gate_and_inverse(rid, build(), sites)


def test_negative_indices_are_what_the_spec_says_and_compute_the_same_in_onnxruntime():
    """The flipped tensors are i - s per column (GatherND: s per index column), and the mutant's outputs
    equal the original's in onnxruntime and the reference evaluator on non-zero inputs."""
    import onnxruntime as ort
    from onnx.reference import ReferenceEvaluator

    original = INDICES(False)
    mutant, _ = REWRITES["element-indices-negative"].apply(original)
    inits = {t.name: numpy_helper.to_array(t) for t in mutant.graph.initializer}
    reads = {n.name: n.input[0 if n.op_type == "OneHot" else 1] for n in mutant.graph.node}
    assert (inits[reads["n0"]] < 0).all() and (inits[reads["n0"]] >= -4).all()
    np.testing.assert_array_equal(inits[reads["n1"]], np.array([[[2], [0]], [[1], [2]]]) - 3)
    np.testing.assert_array_equal(inits[reads["n2"]], np.array([-5, -3, -1]))
    x = _non_zero_inputs(original)
    for m in (original, mutant):
        assert onnx.checker.check_model(m, full_check=True) is None
    want = ort.InferenceSession(original.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)
    got = ort.InferenceSession(mutant.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)
    ref = ReferenceEvaluator(mutant).run(None, x)
    for w, g, r in zip(want, got, ref, strict=True):
        np.testing.assert_array_equal(w, g)
        np.testing.assert_array_equal(w, r)


def test_onehot_before_opset_11_keeps_its_indices():
    """OneHot-9 takes non-negative indices only: no site."""
    assert REWRITES["element-indices-negative"].apply(INDICES_OPSET_10()) is None or not list(
        REWRITES["element-indices-negative"].apply(INDICES_OPSET_10())[1].nodes
    )


def test_typed_storage_of_low_precision_and_packed_types_passes_the_gate():
    assert_sites_gate_and_inverse(
        "typed-data", LOW_PRECISION(), ["w_bf16", "w_f8", "w_i4", "w_u4", "w_u4odd", "s", "s3", "zp3"]
    )


def test_typed_storage_packs_four_bit_pairs_and_keeps_bit_patterns():
    """onnx.proto int32_data: bfloat16/float8 one bit pattern a slot; int4/uint4 two elements a slot,
    the first in the low bits. raw-data packs them back into as many bytes as before."""
    original = LOW_PRECISION()
    typed, _ = REWRITES["typed-data"].apply(original)
    by = {t.name: t for t in typed.graph.initializer}
    assert not any(by[n].HasField("raw_data") for n in ("w_bf16", "w_f8", "w_i4", "w_u4", "w_u4odd", "zp3"))
    assert list(by["w_bf16"].int32_data)[:2] == [0x3F80, 0xC000]  # 1.0, -2.0 as bfloat16 bits
    assert list(by["w_u4"].int32_data) == [1 | 2 << 4, 15 | 0 << 4, 7 | 9 << 4]
    assert len(by["w_u4odd"].int32_data) == 3
    raw, _ = REWRITES["raw-data"].apply(typed)
    before = {t.name: t.raw_data for t in original.graph.initializer}
    assert {t.name: t.raw_data for t in raw.graph.initializer} == before
    verify_equivalent(original, typed, [_non_zero_inputs(original)], "typed-data")


def test_every_index_input_with_a_negative_range_has_a_sign_rewrite():
    rows = index_rows()
    built = {g.where for g in rows if g.status == "rewrite"}
    assert built >= {"Gather.indices", "GatherElements.indices", "GatherND.indices", "ScatterElements.indices"}
    assert "OneHot.indices" in built and any(g.spec.startswith("Operators.md OneHot-11") for g in rows)
    assert [g.where for g in rows if g.status == "gap"] == []
    assert {f"Sequence{o}.position" for o in ("At", "Erase", "Insert")} <= built


def test_every_element_type_has_both_storage_spellings_or_a_reason():
    rows = storage_rows()
    assert [g.where for g in rows if g.status == "gap"] == []
    assert {"TensorProto BFLOAT16", "TensorProto INT4", "TensorProto FLOAT8E5M2"} <= {
        g.where for g in rows if g.status == "rewrite"
    }


def LOOPS(with_reader: bool = True):
    """n0: Loop(M, "") whose body passes its condition through an Identity (a site of loop-cond-given);
    n1: Loop(M, t) with t a true initializer and a Constant-true body condition (loop-cond-omitted);
    n2: Loop(M, t) whose body computes its condition (i < 1: two iterations of three): no site either way;
    n3 (``with_reader``): Loop(M, "") whose body also reads its condition input (a Cast of it is carried out):
    no site."""
    import onnx
    from onnx import helper

    B, F, I64 = onnx.TensorProto.BOOL, onnx.TensorProto.FLOAT, onnx.TensorProto.INT64

    def body(name, cond_nodes, cond_out, extra=()):
        nodes = [*cond_nodes, helper.make_node("Add", [f"{name}_v", "x"], [f"{name}_v2"]), *extra]
        outs = [helper.make_tensor_value_info(cond_out, B, []), helper.make_tensor_value_info(f"{name}_v2", F, [2])]
        ins = [
            helper.make_tensor_value_info(f"{name}_i", I64, []),
            helper.make_tensor_value_info(f"{name}_c", B, []),
            helper.make_tensor_value_info(f"{name}_v", F, [2]),
        ]
        if extra:
            outs.append(helper.make_tensor_value_info(extra[-1].output[0], F, []))
        return helper.make_graph(nodes, f"{name}_body", ins, outs)

    true = helper.make_tensor("true", B, [], [True])
    bodies = [
        body("a", [helper.make_node("Identity", ["a_c"], ["a_co"])], "a_co"),
        body("b", [helper.make_node("Constant", [], ["b_co"], value=true)], "b_co"),
        body(
            "c",
            [
                helper.make_node("Constant", [], ["one"], value=helper.make_tensor("", I64, [], [1])),
                helper.make_node("Less", ["c_i", "one"], ["c_co"]),
            ],
            "c_co",
        ),
        body(
            "d",
            [helper.make_node("Identity", ["d_c"], ["d_co"])],
            "d_co",
            extra=(helper.make_node("Cast", ["d_c"], ["d_cf"], to=F),),
        ),
    ]
    nodes = [
        helper.make_node("Loop", ["m", "", "x"], ["ya"], name="n0", body=bodies[0]),
        helper.make_node("Loop", ["m", "t", "x"], ["yb"], name="n1", body=bodies[1]),
        helper.make_node("Loop", ["m", "t", "x"], ["yc"], name="n2", body=bodies[2]),
    ]
    outs = [helper.make_tensor_value_info(n, F, [2]) for n in ("ya", "yb", "yc")]
    if with_reader:
        nodes.append(helper.make_node("Loop", ["m", "", "x"], ["yd", "sd"], name="n3", body=bodies[3]))
        outs += [helper.make_tensor_value_info("yd", F, [2]), helper.make_tensor_value_info("sd", F, [3])]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", F, [2])],
        outs,
        [helper.make_tensor("m", I64, [], [3]), helper.make_tensor("t", B, [], [True])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)], ir_version=8)


@pytest.mark.parametrize(("rid", "sites"), [("loop-cond-given", ["n0"]), ("loop-cond-omitted", ["n1"])])
def test_loop_cond_finds_its_sites_and_passes_the_gate(rid, sites):
    assert_sites_gate_and_inverse(rid, LOOPS(), sites)


def test_loop_cond_spellings_run_the_body_m_times_in_onnxruntime_and_the_reference():
    """Both spellings give x * (M + 1) after M = 3 iterations in onnxruntime (n2, no site, x * 3); the
    given spelling reads a bool scalar true, and with every cond given the reference evaluator agrees.
    (Its Loop runs no iteration when cond is left out: docs/found.md row 270, so the omitted spelling is
    checked with onnxruntime only.) The omitted one drops t only when nothing reads it."""
    import onnxruntime as ort
    from onnx.reference import ReferenceEvaluator

    original = LOOPS(with_reader=False)
    given, _ = REWRITES["loop-cond-given"].apply(original)
    omitted, _ = REWRITES["loop-cond-omitted"].apply(original)
    cond = given.graph.node[0].input[1]
    assert numpy_helper.to_array(next(t for t in given.graph.initializer if t.name == cond)).tolist() is True
    assert omitted.graph.node[1].input[1] == "" and "t" in {t.name for t in omitted.graph.initializer}  # n2 reads t
    x = {"x": np.array([1.0, -2.0], np.float32)}
    want = [x["x"] * 4, x["x"] * 4, x["x"] * 3]  # n2's i < 1 turns false after its second iteration
    for m in (given, omitted):
        onnx.checker.check_model(m, full_check=True)
        got = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)
    for r, w in zip(ReferenceEvaluator(given).run(None, x), want, strict=True):
        np.testing.assert_array_equal(r, w)


def SEQUENCES():
    """s = [a, b, c] (SequenceConstruct); n1 SequenceAt(s, 1); n2 SequenceAt(s, -1); n3 SequenceInsert(s, d, 1)
    (int32 position) gives s2 of length 4; n4 SequenceInsert(s, d, 3) appends (no negative spelling: no site);
    n5 SequenceErase(s2, 0); n7 SequenceAt of a SplitToSequence (length not fixed by the graph: no site)."""
    return named(
        """g (float[2] a, float[2] b, float[2] c, float[2] d, float[4] x) =>
        (float[2] y1, float[2] y2, float[8] y3, float[8] y4, float[6] y5, float[2] y6) {
        s = SequenceConstruct(a, b, c)
        y1 = SequenceAt(s, p1)
        y2 = SequenceAt(s, m1)
        s2 = SequenceInsert(s, d, p1i32)
        s3 = SequenceInsert(s, d, p3)
        s4 = SequenceErase(s2, p0)
        t = SplitToSequence(x, two)
        y6 = SequenceAt(t, p1)
        y3 = ConcatFromSequence<axis = 0>(s2)
        y4 = ConcatFromSequence<axis = 0>(s3)
        y5 = ConcatFromSequence<axis = 0>(s4)
    }""",
        opset=13,
        initializers=[
            tensor("p1", np.array(1, np.int64)),
            tensor("m1", np.array(-1, np.int64)),
            tensor("p1i32", np.array(1, np.int32)),
            tensor("p3", np.array(3, np.int64)),
            tensor("p0", np.array(0, np.int64)),
            tensor("two", np.array(2, np.int64)),
        ],
    )


@pytest.mark.parametrize(
    ("rid", "sites"), [("sequence-position-negative", ["n1", "n3", "n5"]), ("sequence-position-positive", ["n2"])]
)
def test_sequence_position_sign_finds_its_sites_and_passes_the_gate(rid, sites):
    assert_sites_gate_and_inverse(rid, SEQUENCES(), sites)


def test_negative_sequence_positions_compute_the_same_in_onnxruntime_and_the_reference():
    """The flipped positions are p - n for n = 3 (s) and 4 (s2), element type kept; each tool computes the
    same outputs for both forms, and the two tools agree but on y4 (n4 appends at position n = 3, which
    the reference evaluator inserts at the front: docs/found.md row 272)."""
    import onnxruntime as ort
    from onnx.reference import ReferenceEvaluator

    original = SEQUENCES()
    mutant, _ = REWRITES["sequence-position-negative"].apply(original)
    inits = {t.name: numpy_helper.to_array(t) for t in mutant.graph.initializer}
    pos = {n.name: inits[n.input[-1]] for n in mutant.graph.node if n.name in ("n1", "n3", "n5")}
    assert [int(v) for v in pos.values()] == [-2, -2, -4] and pos["n3"].dtype == np.int32
    x = _non_zero_inputs(original)
    runs = {}
    for label, m in (("original", original), ("mutant", mutant)):
        session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        runs[label] = (session.run(None, x), ReferenceEvaluator(m).run(None, x))
    for k in range(6):
        for tool in (0, 1):
            np.testing.assert_array_equal(runs["original"][tool][k], runs["mutant"][tool][k])
        if k != 3:
            np.testing.assert_array_equal(runs["mutant"][0][k], runs["mutant"][1][k])


def ERASES():
    """n1 SequenceErase(s) with the position left out (the last tensor); n2 SequenceErase(s, -1);
    n3 SequenceErase(s, 0) (not the default: no site either way)."""
    return named(
        """g (float[2] a, float[2] b, float[2] c) => (float[4] y1, float[4] y2, float[4] y3) {
        s = SequenceConstruct(a, b, c)
        s1 = SequenceErase(s)
        s2 = SequenceErase(s, last)
        s3 = SequenceErase(s, first)
        y1 = ConcatFromSequence<axis = 0>(s1)
        y2 = ConcatFromSequence<axis = 0>(s2)
        y3 = ConcatFromSequence<axis = 0>(s3)
    }""",
        opset=13,
        initializers=[tensor("last", np.array(-1, np.int64)), tensor("first", np.array(0, np.int64))],
    )


@pytest.mark.parametrize(
    ("rid", "sites"), [("optional-input-default-explicit", ["n1"]), ("optional-input-default-omitted", ["n2"])]
)
def test_sequence_erase_position_default_finds_its_sites_and_passes_the_gate(rid, sites):
    """SequenceErase-11: an omitted position erases the last tensor, which -1 names for any length."""
    assert_sites_gate_and_inverse(rid, ERASES(), sites)


def REPEATED():
    """n1 Mul(a, a) and n3 Concat(c, c, c) read a Relu / Softmax (axis 0) output in several slots (sites); n4 reads a
    graph input twice and n6 a Dropout output twice (no producer to copy; Dropout counts as random)."""
    return named(
        """g (float[2, 3] x) => (float[2, 3] y, float[6, 3] z, float[2, 3] w, float[2, 3] q) {
        a = Relu(x)
        y = Mul(a, a)
        c = Softmax<axis = 0>(x)
        z = Concat<axis = 0>(c, c, c)
        w = Add(x, x)
        d = Dropout(x)
        q = Add(d, d)
    }""",
        opset=13,
    )


def test_repeated_slot_copy_finds_its_sites_and_passes_the_gate():
    assert_sites_gate_and_inverse("repeated-slot-copy", REPEATED(), ["n1", "n3"])


def test_repeated_slot_copies_are_the_producer_and_merge_back():
    """Every later slot reads its own copy of the producer (same op, inputs, attributes), placed right after
    it; merge-duplicate-nodes gives back the original node list."""
    original = REPEATED()
    mutant, _ = REWRITES["repeated-slot-copy"].apply(original)
    by_out = {n.output[0]: n for n in mutant.graph.node}
    mul = next(n for n in mutant.graph.node if n.op_type == "Mul")
    concat = next(n for n in mutant.graph.node if n.op_type == "Concat")
    assert mul.input[0] == "a" and mul.input[1] != "a" and by_out[mul.input[1]].op_type == "Relu"
    assert concat.input[0] == "c" and len(set(concat.input)) == 3
    assert all(list(by_out[v].input) == ["x"] and by_out[v].attribute == by_out["c"].attribute for v in concat.input)
    assert [n.op_type for n in mutant.graph.node][:3] == ["Relu", "Relu", "Mul"]
    back, _ = REWRITES["merge-duplicate-nodes"].apply(mutant)
    assert [list(n.input) for n in back.graph.node] == [list(n.input) for n in original.graph.node]
