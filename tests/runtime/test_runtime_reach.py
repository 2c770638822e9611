"""Runtime behaviour the mutation selection never reached (found with coverage of
bench/mutation_score.py's test selection): bad feed files named as such, empty sequences,
outputs written without a declared type, STRING inputs observed, and runs that fail."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.errors import FeedError
from passcheck.runtime.feed_files import proto_to_value, read_feeds, write_data_set
from passcheck.runtime.observe import RunFailed, observe
from passcheck.runtime.profile import NODE_TAG


def _model(inputs, outputs, nodes):
    return helper.make_model(
        helper.make_graph(nodes, "g", inputs, outputs), opset_imports=[helper.make_opsetid("", 17)]
    )


def _relu(x_dims=(2,)):
    return _model(
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_dims))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(x_dims))],
        [helper.make_node("Relu", ["x"], ["y"])],
    )


def _two_inputs():
    return _model(
        [
            helper.make_tensor_value_info("a", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("b", TensorProto.FLOAT, [2]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [helper.make_node("Add", ["a", "b"], ["y"])],
    )


# --- feed files: bad input, one clear message each ------------------------------------------------


def test_missing_paths_folders_without_data_sets_and_unreadable_npz_are_refused(tmp_path):
    with pytest.raises(FeedError, match=r"^--feeds .*nowhere: no such file or folder$"):
        read_feeds(tmp_path / "nowhere", _relu())
    (tmp_path / "empty").mkdir()
    with pytest.raises(FeedError, match="empty: no test_data_set_K folders"):
        read_feeds(tmp_path / "empty", _relu())
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(FeedError, match=r"bad.npz: not a readable \.npz"):
        read_feeds(tmp_path / "bad.npz", _relu())


def _tensor_file(folder, j, name, value):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"input_{j}.pb").write_bytes(
        numpy_helper.from_array(np.asarray(value, np.float32), name).SerializeToString()
    )


def test_an_input_fed_twice_or_a_nameless_file_past_the_inputs_is_refused(tmp_path):
    d = tmp_path / "twice" / "test_data_set_0"
    _tensor_file(d, 0, "a", [1, 2])
    _tensor_file(d, 1, "", [3, 4])  # no name: bound by position (b)
    assert [v.tolist() for v in read_feeds(d, _two_inputs())[0].values()] == [[1.0, 2.0], [3.0, 4.0]]
    _tensor_file(d, 1, "a", [3, 4])
    with pytest.raises(FeedError, match="names input 'a' but position 1 is input 'b'"):
        read_feeds(d, _two_inputs())
    d = tmp_path / "past" / "test_data_set_0"
    _tensor_file(d, 0, "", [1, 2])
    _tensor_file(d, 1, "", [3, 4])
    with pytest.raises(
        FeedError,
        match=r"input_1.pb: no graph input at position 1 \(the model has 1 inputs to feed\) and the file names none",
    ):
        read_feeds(d, _relu())


def test_a_data_set_naming_one_input_twice_is_refused(tmp_path):
    d = tmp_path / "test_data_set_0"
    _tensor_file(d, 0, "", [1, 2])  # position 0: a
    m = _two_inputs()
    m.graph.input.insert(
        0, helper.make_tensor_value_info("a", TensorProto.FLOAT, [2])
    )  # a at positions 0 and 1 of graph.input
    _tensor_file(d, 1, "a", [3, 4])
    with pytest.raises(FeedError, match=r"input_1.pb: input 'a' is fed twice in"):
        read_feeds(d, m)


def test_empty_sequences_absent_optionals_and_inconsistent_maps():
    assert proto_to_value(onnx.SequenceProto(name="s", elem_type=0)) == []
    assert proto_to_value(onnx.OptionalProto(name="o", elem_type=0)) is None
    m = onnx.MapProto(name="m", key_type=TensorProto.INT64, keys=[1, 2])
    m.values.CopyFrom(onnx.SequenceProto(elem_type=1, tensor_values=[numpy_helper.from_array(np.zeros(1, np.float32))]))
    with pytest.raises(FeedError, match=r"^map 'm': 2 keys but 1 values$"):
        proto_to_value(m)
    del m.keys[1:]
    m.values.tensor_values.extend([numpy_helper.from_array(np.zeros(1, np.float32))])
    with pytest.raises(FeedError, match=r"^map 'm': 1 keys but 2 values$"):
        proto_to_value(m)
    with pytest.raises(FeedError, match="cannot read a TypeProto as a feed"):
        proto_to_value(onnx.TypeProto())


def test_outputs_without_a_declared_type_are_written_with_the_type_of_their_value(tmp_path):
    m = _relu()
    m.graph.output.add(name="s")  # untyped graph outputs (only a name)
    m.graph.output.add(name="t")
    m.graph.output.add(name="e")
    values = {
        "y": np.ones(2, np.float32),
        "s": [np.arange(3, dtype=np.int64)],
        "t": np.array(["a", "b"], dtype=object),
        "e": [],
    }
    d = write_data_set(tmp_path, 0, m, {"x": np.ones(2, np.float32)}, values)
    s = onnx.SequenceProto.FromString((d / "output_1.pb").read_bytes())
    assert s.name == "s" and proto_to_value(s)[0].tolist() == [0, 1, 2] and proto_to_value(s)[0].dtype == np.int64
    t = onnx.TensorProto.FromString((d / "output_2.pb").read_bytes())
    assert t.data_type == TensorProto.STRING and [v.decode() for v in t.string_data] == ["a", "b"]
    e = onnx.SequenceProto.FromString((d / "output_3.pb").read_bytes())
    assert e.name == "e" and proto_to_value(e) == []


# --- observation ---------------------------------------------------------------------------------


def test_a_model_with_a_string_input_is_observed():
    m = _model(
        [helper.make_tensor_value_info("s", TensorProto.STRING, ["N"])],
        [helper.make_tensor_value_info("n", TensorProto.INT64, [1])],
        [helper.make_node("Identity", ["s"], ["t"]), helper.make_node("Shape", ["t"], ["n"])],
    )
    m.graph.value_info.append(helper.make_tensor_value_info("t", TensorProto.STRING, ["N"]))
    observed, unobservable = observe(m, {"s": np.array(["a", "b", "c"], dtype=object)})
    assert unobservable == {}
    # onnxruntime takes strings from numpy only: the values are fetched, not profiled
    assert np.asarray(observed["n"]).tolist() == [3]
    assert np.asarray(observed["t"]).tolist() == ["a", "b", "c"]


def test_runs_that_fail_raise_run_failed_naming_the_engine():
    m = _relu((2,))
    with pytest.raises(RunFailed, match="^the reference evaluator could not run the model on these feeds: "):
        observe(m, {}, engine="reference")
    seq = _model(
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, [2])],
        [helper.make_node("SequenceConstruct", ["x", "x"], ["s"])],
    )
    with pytest.raises(RunFailed, match="^onnxruntime could not run the model on these feeds: "):
        observe(seq, {"x": np.ones(2, np.int64)})  # wrong elem_type fed


def test_symbols_are_read_past_inputs_without_a_shape():
    from passcheck.runtime.feeds import default_bindings, graph_symbols

    m = _model(
        [
            helper.make_tensor_value_info("r", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "M"]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [helper.make_node("Relu", ["x"], ["y"])],
    )
    assert graph_symbols(m) == ["N", "M"]
    assert default_bindings(m) == [{"N": 2, "M": 2}, {"N": 3, "M": 3}]


def test_a_profile_line_holding_two_kernel_events_is_untrusted():
    from passcheck.runtime import observe as obs

    event = f'{{"name":"{NODE_TAG}0_kernel_time","args":{{"output_type_shape":[{{"float":[2]}}]}}}}'
    assert obs._profiled([("r",)], "[\n" + event + "\n]") == {"r": obs.TensorMeta((2,), np.dtype(np.float32))}
    with pytest.raises(obs._Untrusted, match="more than one kernel event"):
        obs._profiled([("r",)], "[\n" + event + "," + event + "\n]")


def test_a_model_that_fails_to_load_leaves_no_profile_behind():
    import glob
    import os
    import tempfile

    m = _model(
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Bar", ["r"], ["y"], domain="foo")],
    )
    m.opset_import.append(helper.make_opsetid("foo", 1))
    m.graph.value_info.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, [2]))  # read from the profile
    pattern = os.path.join(tempfile.gettempdir(), f"passcheck-ort-{os.getpid()}-*")
    before = set(glob.glob(pattern))
    with pytest.raises(RunFailed, match="^onnxruntime could not run the model on these feeds: "):
        observe(m, {"x": np.ones(2, np.float32)})
    assert set(glob.glob(pattern)) == before


def test_run_errors_are_kept_to_2000_characters():
    from passcheck.runtime.reference import run_reference
    from passcheck.runtime.session import run_ort

    long = "x" * 3000  # an input name that every error about the missing feed repeats
    m = _model(
        [helper.make_tensor_value_info(long, TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [helper.make_node("Relu", [long], ["y"])],
    )
    for error in (run_ort(m, {}).error, run_reference(m, {}).error):
        kind, text = error.split(": ", 1)
        assert kind.isidentifier() and len(text) == 2000


def test_a_message_that_cannot_be_read_as_a_value_is_bad_input_naming_the_file_and_input(tmp_path):
    d = tmp_path / "test_data_set_0"
    d.mkdir()
    bad = onnx.TensorProto(name="x", data_type=TensorProto.FLOAT, dims=[2], raw_data=b"\0" * 4)  # 4 bytes for 2 floats
    (d / "input_0.pb").write_bytes(bad.SerializeToString())
    with pytest.raises(FeedError, match=r"input_0.pb: cannot read the value of input 'x': "):
        read_feeds(d, _relu())
    # a FeedError of the value itself is passed on as it is
    mt = helper.make_map_type_proto(TensorProto.INT64, helper.make_tensor_type_proto(TensorProto.FLOAT, []))
    m = _model([helper.make_value_info("m", mt)], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])], [])
    mp = onnx.MapProto(name="m", key_type=TensorProto.INT64, keys=[1, 2])
    mp.values.CopyFrom(
        onnx.SequenceProto(elem_type=1, tensor_values=[numpy_helper.from_array(np.zeros(1, np.float32))])
    )
    (d / "input_0.pb").write_bytes(mp.SerializeToString())
    with pytest.raises(FeedError, match=r"^map 'm': 2 keys but 1 values$"):
        read_feeds(d, m)


def test_an_input_without_a_type_cannot_be_written_and_says_so(tmp_path):
    m = _relu()
    m.graph.input.add(name="u")  # a graph input with only a name
    with pytest.raises(FeedError, match=r"^u: cannot write a value of kind None$"):
        write_data_set(tmp_path, 0, m, {"x": np.ones(2, np.float32), "u": np.ones(2, np.float32)})


def test_bfloat16_and_float8_inputs_get_normal_values():
    pytest.importorskip("ml_dtypes")
    from passcheck.runtime.feeds import synthesize

    m = _model(
        [
            helper.make_tensor_value_info("b", TensorProto.BFLOAT16, [2000]),
            helper.make_tensor_value_info("f", TensorProto.FLOAT8E4M3FN, [2000]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [],
    )
    feeds = synthesize(m, {}, 0)
    for name in ("b", "f"):
        v = feeds[name].astype(np.float32)
        assert feeds[name].dtype.itemsize == (2 if name == "b" else 1)
        assert 0.85 < v.std() < 1.15 and abs(v.mean()) < 0.1, name


def test_data_sets_beside_a_model_are_described_by_their_numeric_span(tmp_path):
    from passcheck.runtime.feed_files import data_sets_beside

    m = _relu()
    write_data_set(tmp_path, 2, m, {"x": np.ones(2, np.float32)})
    assert data_sets_beside(tmp_path / "model.onnx") == (tmp_path, "test_data_set_2 from the model folder")
    write_data_set(tmp_path, 10, m, {"x": np.ones(2, np.float32)})
    (tmp_path / "test_data_set_30").mkdir()  # no input_J.pb: not a data set
    (tmp_path / "test_data_set_40.pb").write_bytes(b"")  # not a folder
    assert data_sets_beside(tmp_path / "model.onnx") == (tmp_path, "test_data_set_2..10 from the model folder")


def _function_model(t_dims):
    from onnx import parser

    m = parser.parse_model("""<ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[2] x) => (float[2] y) { y = local.f(x) }
    <domain: "local", opset_import: ["" : 18]>
    f (a) => (b) { t = Relu(a)  b = Neg(t) }""")
    m.functions[0].value_info.append(helper.make_tensor_value_info("t", TensorProto.FLOAT, t_dims))
    return m


def test_function_values_are_unobservable_to_onnxruntime_and_observed_by_the_evaluator():
    from passcheck.oracles.shape_annotations import check

    m = _function_model([3])  # wrong: t has 2 elements
    feeds = {"x": np.array([1.0, -1.0], np.float32)}
    observed, blind = observe(m, feeds, engine="ort")
    assert blind == {
        "function local.f::t": "inside function local.f: onnxruntime inlines functions and cannot expose their values; "
        "use --engine reference"
    }
    observed, blind = observe(m, feeds)  # auto: the evaluator fills in what onnxruntime cannot see
    assert blind == {} and [np.asarray(v).tolist() for v in observed["function local.f::t"]] == [[1.0, 0.0]]
    [v] = check(m, observed).violations
    assert v.value == "function local.f::t#0" and v.rule == "dim-value"


def test_an_untrusted_event_is_quoted_80_characters_either_side():
    import ast

    from passcheck.runtime import observe as obs
    from passcheck.runtime.profile import KERNEL_SUFFIX

    event = f'{{"name":"{NODE_TAG}0_kernel_time","args":{{"op_name":"Relu","pad":"{"q" * 200}"}}}}'
    trace = "[\n" + '{"name":"before","args":{"pad":"%s"}},\n' % ("p" * 200) + event + "\n]"
    with pytest.raises(obs._Untrusted) as err:
        obs._profiled([("r",)], trace)
    i = trace.index(KERNEL_SUFFIX)
    assert ast.literal_eval(str(err.value).split(": ", 1)[1]) == trace[i - 80 : i + 80]


def test_a_data_set_written_again_replaces_the_first(tmp_path):
    m = _relu()
    write_data_set(tmp_path, 0, m, {"x": np.zeros(2, np.float32)})
    d = write_data_set(tmp_path, 0, m, {"x": np.full(2, 7.0, np.float32)})
    assert read_feeds(d, m)[0]["x"].tolist() == [7.0, 7.0]


def test_observation_works_when_the_profile_cannot_be_written(monkeypatch, tmp_path):
    import tempfile

    from passcheck.runtime.observe import TensorMeta

    m = _model(
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])],
    )
    m.graph.value_info.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, [2]))
    monkeypatch.setattr(
        tempfile, "tempdir", str(tmp_path / "missing" / "folder")
    )  # onnxruntime's profile has nowhere to go
    observed, blind = observe(m, {"x": np.ones(2, np.float32)})
    meta = TensorMeta((2,), np.dtype(np.float32))
    assert blind == {} and observed["r"] == meta and observed["y"] == meta


def test_string_inputs_given_as_str_or_bytes_arrays_are_written(tmp_path):
    m = _model(
        [helper.make_tensor_value_info("s", TensorProto.STRING, [2])],
        [helper.make_tensor_value_info("y", TensorProto.STRING, [2])],
        [helper.make_node("Identity", ["s"], ["y"])],
    )
    for k, value in enumerate(
        (np.array(["ab", "c"]), np.array([b"ab", b"c"]))
    ):  # numpy kinds U and S (e.g. from a .npz)
        d = write_data_set(tmp_path, k, m, {"s": value})
        assert [v.decode() if isinstance(v, bytes) else v for v in read_feeds(d, m)[0]["s"].tolist()] == ["ab", "c"]
