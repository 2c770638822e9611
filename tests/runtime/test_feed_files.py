"""Feed files: .npz and the ONNX backend-test layout, every value kind of seed 001, by name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import parser

from passcheck.errors import FeedError
from passcheck.runtime.feed_files import SparseValue, proto_to_value, read_feeds, value_to_proto, write_data_set

DATA = Path(onnx.__file__).parent / "backend/test/data"

M = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N] a, seq(float[N]) s, optional(int64[2]) o) => (float[N] y) { y = Relu(a) }""")


def test_round_trip_every_kind(tmp_path):
    feeds = {"a": np.arange(3, dtype=np.float32), "s": [np.ones(3, np.float32), np.zeros(3, np.float32)], "o": None}
    write_data_set(tmp_path, 0, M, feeds, {"y": np.arange(3, dtype=np.float32)})
    feeds2 = dict(feeds, o=np.array([1, 2], np.int64))
    write_data_set(tmp_path, 1, M, feeds2)
    got = read_feeds(tmp_path, M)
    assert len(got) == 2 and got[0]["o"] is None and np.array_equal(got[1]["o"], [1, 2])
    assert [x.tolist() for x in got[0]["s"]] == [[1, 1, 1], [0, 0, 0]]
    assert (tmp_path / "test_data_set_0/output_0.pb").exists()
    tp = onnx.TypeProto()
    tp.map_type.key_type = onnx.TensorProto.STRING
    tp.map_type.value_type.tensor_type.elem_type = onnx.TensorProto.FLOAT
    m = {"x": np.float32(1.5), "y": np.float32(2)}
    assert {k: float(v) for k, v in proto_to_value(value_to_proto(m, tp, "m")).items()} == {"x": 1.5, "y": 2.0}
    sp = onnx.TypeProto()
    sp.sparse_tensor_type.elem_type = onnx.TensorProto.FLOAT
    v = proto_to_value(value_to_proto(SparseValue(np.ones(2, np.float32), np.array([1, 4]), (2, 3)), sp, "sp"))
    assert v.dense_shape == (2, 3) and v.indices.tolist() == [1, 4]


def test_bound_by_name_and_checked_against_position(tmp_path):
    d = tmp_path / "test_data_set_0"
    write_data_set(tmp_path, 0, M, {"a": np.ones(2, np.float32), "s": [], "o": None})
    (d / "input_0.pb").rename(d / "tmp.pb")
    (d / "input_1.pb").rename(d / "input_0.pb")
    (d / "tmp.pb").rename(d / "input_1.pb")
    with pytest.raises(FeedError, match="names input 's' but position 0 is input 'a'"):
        read_feeds(tmp_path, M)


def test_file_for_unknown_input(tmp_path):
    d = tmp_path / "test_data_set_0"
    d.mkdir()
    (d / "input_0.pb").write_bytes(onnx.numpy_helper.from_array(np.ones(2, np.float32), "nope").SerializeToString())
    with pytest.raises(FeedError, match="'nope', which the model does not have"):
        read_feeds(d, M)
    np.savez(tmp_path / "f.npz", nope=np.ones(2))
    with pytest.raises(FeedError, match="does not have"):
        read_feeds(tmp_path / "f.npz", M)


@pytest.mark.parametrize("elem_type", [-1, 6])
def test_a_sequence_or_optional_of_an_element_kind_onnx_does_not_define_is_refused(tmp_path, elem_type):
    """SequenceProto/OptionalProto ``elem_type`` is 0 (UNDEFINED: empty) to 5 (onnx-data.proto's
    DataType); any other value is bad input, not an empty sequence or a missing optional (kills
    ``elem_type == 0`` → ``<= 0``)."""
    write_data_set(tmp_path, 0, M, {"a": np.ones(2, np.float32), "s": [], "o": None})
    d = tmp_path / "test_data_set_0"
    for i, kind in [(1, onnx.SequenceProto), (2, onnx.OptionalProto)]:
        written = (d / f"input_{i}.pb").read_bytes()
        msg = kind.FromString(written)
        msg.elem_type = elem_type
        (d / f"input_{i}.pb").write_bytes(msg.SerializeToString())
        with pytest.raises(FeedError, match=f"cannot read the value of input '{msg.name}'"):
            read_feeds(tmp_path, M)
        (d / f"input_{i}.pb").write_bytes(written)


def test_npz_and_missing_input(tmp_path):
    np.savez(tmp_path / "f.npz", a=np.ones(2, np.float32))
    with pytest.raises(FeedError, match="no value for input"):
        read_feeds(tmp_path / "f.npz", M)


@pytest.mark.parametrize("folder", sorted(p.parent for p in DATA.glob("*/*/model.onnx")), ids=lambda p: p.name)
def test_reads_every_shipped_backend_test(folder):
    model = onnx.load(folder / "model.onnx")
    sets = read_feeds(folder, model)
    assert sets and all(
        set(s) >= {vi.name for vi in model.graph.input if vi.name not in {t.name for t in model.graph.initializer}}
        for s in sets
    )
