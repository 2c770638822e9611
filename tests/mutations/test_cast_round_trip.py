"""``cast-round-trip``: a value cast through a type that represents all of its own and back, each site through
the equivalence gate (real onnx checker and onnxruntime runs) and bit-equal to the original."""

from __future__ import annotations

import mutation_models as M  # beside this file, loaded by conftest.py
import numpy as np
import onnx
import onnxruntime as ort

from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.cast_round_trip import represents, wider

R = REWRITES["cast-round-trip"]
T = onnx.TensorProto

MIXED = lambda: M.named(  # noqa: E731
    """g (float[2, 3] x, int32[2, 3] i, uint8[2, 3] u) => (float[2, 3] y, int32[2, 3] j, uint8[2, 3] v) {
    r = Relu(x)
    y = Neg(r)
    j = Add(i, i)
    v = Add(u, u)
}""",
    opset=18,
)


def test_the_table_keeps_narrowing_types_out():
    assert wider(T.FLOAT) == (T.DOUBLE,)
    assert set(wider(T.FLOAT16)) == {T.FLOAT, T.DOUBLE}
    assert set(wider(T.INT32)) == {T.INT64, T.DOUBLE}
    assert wider(T.INT64) == () and wider(T.DOUBLE) == ()
    assert represents(T.INT16, T.UINT8) and represents(T.FLOAT16, T.INT8) and not represents(T.FLOAT16, T.INT16)
    assert not represents(T.BFLOAT16, T.FLOAT16) and not represents(T.FLOAT16, T.BFLOAT16)
    assert not represents(T.INT32, T.FLOAT) and not represents(T.INT8, T.UINT8)


def test_each_site_passes_the_gate_bit_equal():
    original = MIXED()
    labels = R.sites(original)
    assert {"x:via-double", "r:via-double", "i:via-int64", "i:via-double", "u:via-int16", "u:via-float16"} <= set(
        labels
    )
    assert not any(label.endswith((":via-float16", ":via-int32")) for label in labels if label.startswith("x"))
    runs = M.feeds(original)
    sess = ort.InferenceSession(original.SerializeToString(), providers=["CPUExecutionProvider"])
    want = [sess.run(None, f) for f in runs]
    for label in labels:
        mutant, applied = R.apply(original, [label])
        assert list(applied.nodes) == [label]
        verify_equivalent(original, mutant, runs, f"cast-round-trip@{label}")
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        got = ort.InferenceSession(mutant.SerializeToString(), opts, providers=["CPUExecutionProvider"])
        for f, w in zip(runs, want):
            for a, b in zip(got.run(None, f), w):
                assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), label


def test_all_at_once_passes_the_gate():
    original = MIXED()
    mutant, applied = R.apply(original)
    assert len(applied.nodes) == len(R.sites(original))
    assert sum(n.op_type == "Cast" for n in mutant.graph.node) == 2 * len(applied.nodes)
    verify_equivalent(original, mutant, M.feeds(original), "cast-round-trip")


def test_the_round_trip_is_inserted_as_two_casts_back_to_the_type():
    mutant, _ = R.apply(MIXED(), ["r:via-double"])
    casts = [n for n in mutant.graph.node if n.op_type == "Cast"]
    to = [onnx.helper.get_attribute_value(c.attribute[0]) for c in casts]
    assert to == [T.DOUBLE, T.FLOAT] and casts[1].input[0] == casts[0].output[0]
    assert np.array(to).dtype.kind == "i"
