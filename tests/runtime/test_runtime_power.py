"""Pins of runtime behaviour found unguarded by bench/mutation_score.py: binding maps and feed
synthesis (sizes, value ranges, determinism, the byte limit), the unoptimized onnxruntime session
and its observation copy, backend-test data sets, the reference evaluator."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.errors import FeedError
from passcheck.runtime import feeds as feeds_mod
from passcheck.runtime.feed_files import read_feeds, write_data_set
from passcheck.runtime.feeds import default_bindings, graph_symbols, runtime_inputs, synthesize
from passcheck.runtime.profile import NODE_TAG
from passcheck.runtime.reference import run_reference
from passcheck.runtime.session import all_node_outputs, observation_copy, run_ort, session_options


def _model(inputs, nodes=(), outputs=None, inits=()):
    outputs = outputs or [helper.make_tensor_value_info(inputs[0].name, inputs[0].type.tensor_type.elem_type, None)]
    g = helper.make_graph(list(nodes), "g", list(inputs), outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _t(name, elem, dims):
    return helper.make_tensor_value_info(name, elem, dims)


def _seq(name, elem, dims):
    return helper.make_tensor_sequence_value_info(name, elem, dims)


# --- binding maps ------------------------------------------------------------------------------


def test_symbols_in_order_of_first_use_skipping_initializer_backed_inputs():
    m = _model(
        [
            _t("a", TensorProto.FLOAT, ["B", 3, "T"]),
            _seq("s", TensorProto.FLOAT, ["S", "B"]),
            _t("w", TensorProto.FLOAT, ["W"]),
            _t("c", TensorProto.FLOAT, [None, ""]),
        ],
        inits=[helper.make_tensor("w", TensorProto.FLOAT, [1], [0.0])],
    )
    assert graph_symbols(m) == ["B", "T", "S"]
    assert [vi.name for vi in runtime_inputs(m)] == ["a", "s", "c"]


def test_default_bindings_are_two_and_three_with_overrides_on_both():
    m = _model([_t("a", TensorProto.FLOAT, ["B", "T"])])
    assert default_bindings(m) == [{"B": 2, "T": 2}, {"B": 3, "T": 3}]
    assert default_bindings(m, {"T": 7}) == [{"B": 2, "T": 7}, {"B": 3, "T": 7}]
    with pytest.raises(FeedError, match=r"--bind X: the model's inputs have no symbolic dim 'X' \(they use: B, T\)"):
        default_bindings(m, {"X": 1})
    static = _model([_t("a", TensorProto.FLOAT, [2])])
    assert default_bindings(static) == [{}, {}]
    with pytest.raises(FeedError, match=r"\(they have no symbolic dims\)"):
        default_bindings(static, {"X": 1})


# --- synthesized feeds -------------------------------------------------------------------------


def test_sizes_from_dim_value_binding_and_default_size():
    m = _model([_t("a", TensorProto.FLOAT, [4, "B", "U", None])])
    assert synthesize(m, {"B": 5}, 0)["a"].shape == (4, 5, 2, 2)
    assert synthesize(m, {"B": 5}, 0, default_size=3)["a"].shape == (4, 5, 3, 3)
    assert synthesize(m, {"B": 1, "U": 6}, 0)["a"].shape == (4, 1, 6, 2)
    scalar = _model([_t("a", TensorProto.FLOAT, [])])
    assert synthesize(scalar, {}, 0)["a"].shape == ()


def test_same_model_binding_and_seed_give_the_same_arrays():
    m = _model([_t("a", TensorProto.FLOAT, ["B", 3]), _t("i", TensorProto.INT64, [5])])
    one, two = synthesize(m, {"B": 2}, 7), synthesize(model=m, binding={"B": 2}, seed=7)  # named or not
    for k in one:
        np.testing.assert_array_equal(one[k], two[k])
    assert not np.array_equal(synthesize(m, {"B": 2}, 8)["a"], one["a"])


def test_values_by_dtype():
    m = _model(
        [
            _t("f", TensorProto.FLOAT, [4000]),
            _t("h", TensorProto.FLOAT16, [3]),
            _t("i", TensorProto.INT32, [4000]),
            _t("u", TensorProto.UINT8, [50]),
            _t("b", TensorProto.BOOL, [200]),
            _t("s", TensorProto.STRING, [60]),
            _t("c", TensorProto.COMPLEX64, [4000]),
        ]
    )
    f = synthesize(m, {}, 0)
    assert f["f"].dtype == np.float32 and abs(f["f"].mean()) < 0.1 and 0.9 < f["f"].std() < 1.1 and (f["f"] < 0).any()
    assert f["h"].dtype == np.float16
    assert f["i"].dtype == np.int32 and set(np.unique(f["i"])) == {0, 1, 2, 3}
    assert f["u"].dtype == np.uint8 and f["u"].max() <= 3
    assert f["b"].dtype == bool and f["b"].any() and not f["b"].all()
    assert f["s"].dtype == object and set(f["s"]) == {"a", "b", "c"}
    assert f["c"].dtype == np.complex64 and (f["c"].imag != 0).all()
    # real and imaginary parts each ~ N(0, 1), independently (not points on the unit circle)
    assert 0.9 < f["c"].real.std() < 1.1 and 0.9 < f["c"].imag.std() < 1.1 and abs(f["c"].imag.mean()) < 0.1
    assert np.abs(f["c"]).std() > 0.2


def test_sequences_hold_two_elements_and_optionals_one_value():
    opt = helper.make_value_info(
        "o", helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [3]))
    )
    m = _model([_seq("s", TensorProto.INT64, ["B"]), opt])
    f = synthesize(m, {"B": 3}, 0)
    assert len(f["s"]) == 2 and all(v.shape == (3,) and v.dtype == np.int64 for v in f["s"])
    assert isinstance(f["o"], np.ndarray) and f["o"].shape == (3,)


def test_byte_limit_counts_every_input_and_sequences_twice():
    m = _model([_t("a", TensorProto.FLOAT, [4])])  # 16 bytes
    assert synthesize(m, {}, 0, max_bytes=16)["a"].shape == (4,)
    with pytest.raises(
        FeedError,
        match=r"would take 16 bytes \(limit 15; input 'a' of shape \[4\] alone 16\); give real inputs with --feeds$",
    ):
        synthesize(m, {}, 0, max_bytes=15)
    seq = _model([_seq("s", TensorProto.FLOAT, ["B"]), _t("a", TensorProto.FLOAT, [1])])  # 2 × 16 + 4
    assert len(synthesize(seq, {"B": 4}, 0, max_bytes=36)["s"]) == 2
    with pytest.raises(
        FeedError,
        match=r"would take 36 bytes \(limit 35; input 's' of shape \[4\] alone 32\).*or smaller symbolic dims with "
        r"--bind SYM=N",
    ):
        synthesize(seq, {"B": 4}, 0, max_bytes=35)


def test_default_byte_limit_is_one_gibibyte_and_nothing_is_allocated_beyond_it():
    assert feeds_mod.MAX_FEED_BYTES == 1 << 30
    huge = _model([_t("a", TensorProto.FLOAT, [1 << 28, 2])])
    with pytest.raises(FeedError, match="2,147,483,648 bytes"):
        synthesize(huge, {}, 0)
    assert synthesize(_model([_t("a", TensorProto.FLOAT, [1 << 16])]), {}, 0)["a"].size == 1 << 16


@pytest.mark.parametrize(
    ("vi", "message"),
    [
        (_t("a", TensorProto.FLOAT, [-1]), "negative dim_value -1"),
        (
            helper.make_value_info("a", helper.make_tensor_type_proto(TensorProto.FLOAT, None)),
            "has no shape annotation",
        ),
        (
            helper.make_value_info("a", helper.make_tensor_type_proto(TensorProto.UNDEFINED, [1])),
            "elem_type 0 has no numpy dtype",
        ),
        (
            helper.make_value_info(
                "a", helper.make_map_type_proto(TensorProto.INT64, helper.make_tensor_type_proto(TensorProto.FLOAT, []))
            ),
            "cannot synthesize a value of kind map_type",
        ),
        (
            helper.make_value_info(
                "a",
                helper.make_sequence_type_proto(
                    helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [1]))
                ),
            ),
            "cannot synthesize a sequence_type of sequence_type",
        ),
    ],
)
def test_inputs_that_cannot_be_synthesized(vi, message):
    with pytest.raises(FeedError, match=f"input 'a'.*{message}"):
        synthesize(_model([vi], outputs=[_t("y", TensorProto.FLOAT, None)]), {}, 0)


# --- the unoptimized session -------------------------------------------------------------------


def _chain():
    """x[N, 2] → Relu → r → Neg → y, with wrong annotations everywhere (they must not matter)."""
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Neg", ["r"], ["y"]),
        helper.make_node("Identity", ["w"], ["wi"]),
    ]
    m = _model(
        [_t("x", TensorProto.FLOAT, ["N", 2])],
        nodes,
        [_t("y", TensorProto.FLOAT, [7, 7, 7]), _t("wi", TensorProto.FLOAT, [1])],
        inits=[helper.make_tensor("w", TensorProto.FLOAT, [1], [0.5])],
    )
    m.graph.value_info.append(_t("r", TensorProto.FLOAT, [9]))
    return m


def test_observation_copy_clears_annotations_and_exposes_only_produced_values():
    m = _chain()
    before = m.SerializeToString()
    copy, added = observation_copy(m, ["r", "r", "x", "w", "y", "nowhere", "wi"])
    assert added == ["r"]
    assert m.SerializeToString() == before
    assert len(copy.graph.value_info) == 0
    assert [o.name for o in copy.graph.output] == ["y", "wi", "r"]
    assert not any(vi.type.tensor_type.HasField("shape") for vi in list(copy.graph.input) + list(copy.graph.output)[:2])
    assert all_node_outputs(m) == ["r", "y", "wi"]


def test_run_ort_runs_despite_wrong_annotations_and_observes_exposed_values():
    x = np.array([[-1.0, 2.0], [3.0, -4.0], [0.5, 0.0]], np.float32)
    r = run_ort(_chain(), {"x": x, "unused": np.zeros(1)}, expose=["r"])
    assert r.error is None
    assert list(r.outputs) == ["y", "wi"]
    np.testing.assert_array_equal(r.outputs["y"], -np.maximum(x, 0))
    np.testing.assert_array_equal(r.observed["r"], np.maximum(x, 0))
    assert r.observed["x"] is x and "unused" in r.observed
    assert "r" not in run_ort(_chain(), {"x": x}).observed


def test_run_ort_returns_a_failure_instead_of_raising():
    r = run_ort(_chain(), {"x": np.zeros((2, 2), np.int64)})
    assert r.outputs == {} and r.observed == {}
    assert r.error.split(":")[0] in ("InvalidArgument", "Fail", "RuntimeException") and "\n" not in r.error[:20]


def test_session_is_unoptimized_single_threaded_and_quiet():
    import onnxruntime as ort

    so = session_options()
    assert so.graph_optimization_level == ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    assert so.intra_op_num_threads == 1
    assert so.log_severity_level == 4


# --- data sets and the reference evaluator -----------------------------------------------------


def test_data_sets_are_read_in_numeric_order_with_outputs_written(tmp_path):
    m = _chain()
    xs = [np.full((1, 2), k, np.float32) for k in range(11)]
    for k, x in enumerate(xs):
        d = write_data_set(tmp_path, k, m, {"x": x}, {"y": -x})
    assert d.name == "test_data_set_10"
    assert sorted(p.name for p in d.iterdir()) == ["input_0.pb", "output_0.pb"]
    got = read_feeds(tmp_path, m)
    assert [float(s["x"][0, 0]) for s in got] == list(range(11))
    assert [list(s) for s in read_feeds(tmp_path / "test_data_set_3", m)] == [["x"]]


def test_reference_evaluator_observes_every_node_output():
    x = np.array([[-1.0, 2.0]], np.float32)
    run = run_reference(_chain(), {"x": x})
    assert run.error is None
    np.testing.assert_array_equal(run.outputs["y"], [[-0.0, -2.0]])
    np.testing.assert_array_equal(run.observed["r"], [[0.0, 2.0]])
    bad = run_reference(_chain(), {})  # no value for x
    assert bad.outputs == {} and bad.error


def test_backend_layout_positions_may_count_initializer_backed_inputs(tmp_path):
    # onnx's backend runner numbers input_J.pb over the full graph.input list, defaults included
    m = _chain()
    m.graph.input.insert(0, _t("w", TensorProto.FLOAT, [1]))
    d = tmp_path / "test_data_set_0"
    d.mkdir()
    (d / "input_0.pb").write_bytes(onnx.numpy_helper.from_array(np.array([9.0], np.float32), "w").SerializeToString())
    (d / "input_1.pb").write_bytes(onnx.numpy_helper.from_array(np.ones((1, 2), np.float32), "x").SerializeToString())
    [got] = read_feeds(tmp_path, m)
    assert sorted(got) == ["w", "x"] and float(got["w"][0]) == 9.0
    # passcheck writes positions over the inputs that need a feed: input_0.pb is x, and reads it back
    written = write_data_set(tmp_path / "ours", 0, m, {"x": np.full((1, 2), 4.0, np.float32)})
    assert [read_feeds(written, m)[0]["x"].tolist()] == [[[4.0, 4.0]]]


def test_data_sets_written_after_a_defaulted_input_read_back_by_position_and_name(tmp_path):
    # graph.input [w (initializer), a, b]: passcheck writes input_0.pb = a, input_1.pb = b
    m = _model(
        [_t("w", TensorProto.FLOAT, [1]), _t("a", TensorProto.FLOAT, [2]), _t("b", TensorProto.FLOAT, [3])],
        [helper.make_node("Identity", ["a"], ["y"])],
        [_t("y", TensorProto.FLOAT, [2])],
        [onnx.numpy_helper.from_array(np.zeros(1, np.float32), "w")],
    )
    d = write_data_set(tmp_path, 0, m, {"a": np.full(2, 1.0, np.float32), "b": np.full(3, 2.0, np.float32)})
    [got] = read_feeds(d, m)
    assert sorted(got) == ["a", "b"] and got["a"].tolist() == [1.0, 1.0] and got["b"].tolist() == [2.0, 2.0, 2.0]


def test_observe_reports_an_annotated_initializer_that_is_not_fed():
    from passcheck.runtime.observe import TensorMeta, observe

    m = _chain()
    m.graph.input.append(_t("w", TensorProto.FLOAT, [1]))  # an overridable default, annotated
    observed, unobservable = observe(m, {"x": np.ones((2, 2), np.float32)})
    assert observed["w"] == TensorMeta((1,), np.dtype(np.float32))
    assert unobservable == {}
    fed = np.zeros(1, np.float32)
    assert observe(m, {"x": np.ones((2, 2), np.float32), "w": fed})[0]["w"] is fed


def test_profile_with_a_kernel_not_of_the_model_is_untrusted():
    from passcheck.runtime import observe as obs

    line = '{"name":"%s_kernel_time","args":{"output_type_shape":[{"float":[2,2]}]}}'
    good = "[\n" + line % (NODE_TAG + "0") + "\n]"
    assert obs._profiled([("r",)], good) == {"r": obs.TensorMeta((2, 2), np.dtype(np.float32))}
    for name in (NODE_TAG + "0a", "Relu_token_0", "x" + NODE_TAG + "0"):
        with pytest.raises(obs._Untrusted):
            obs._profiled([("r",)], "[\n" + line % name + "\n]")


def test_an_event_without_output_shapes_is_untrusted_and_quoted_around_the_event():
    from passcheck.runtime import observe as obs

    event = f'{{"name":"{NODE_TAG}0_kernel_time","args":{{"op_name":"Relu"}}}}'
    earlier = '{"name":"session_initialization","args":{"padding":"%s"}}' % ("p" * 200)
    with pytest.raises(obs._Untrusted, match="a kernel event not in the expected form") as err:
        obs._profiled([("r",)], "[\n" + earlier + ",\n" + event + "\n]")
    excerpt = str(err.value).split(": ", 1)[1]
    assert (
        NODE_TAG + "0_kernel_time" in excerpt and "session_initialization" not in excerpt
    )  # 80 characters either side
    assert len(excerpt) <= 160 + 2


def test_sequence_of_optionals_and_optional_of_sequence_round_trip():
    from passcheck.runtime.feed_files import proto_to_value, value_to_proto

    tensor = helper.make_tensor_type_proto(TensorProto.FLOAT, [2])
    seq_of_opt = helper.make_sequence_type_proto(helper.make_optional_type_proto(tensor))
    a = np.array([1.0, 2.0], np.float32)
    msg = value_to_proto([a, None], seq_of_opt, "s")
    assert msg.elem_type == onnx.SequenceProto.OPTIONAL
    back = proto_to_value(onnx.SequenceProto.FromString(msg.SerializeToString()))
    assert len(back) == 2 and back[1] is None
    np.testing.assert_array_equal(back[0], a)
    opt_of_seq = helper.make_optional_type_proto(helper.make_sequence_type_proto(tensor))
    msg = value_to_proto([a], opt_of_seq, "o")
    assert msg.elem_type == onnx.OptionalProto.SEQUENCE
    [only] = proto_to_value(onnx.OptionalProto.FromString(msg.SerializeToString()))
    np.testing.assert_array_equal(only, a)


def test_sequence_of_maps_round_trips():
    from passcheck.runtime.feed_files import proto_to_value, value_to_proto

    value_type = helper.make_tensor_type_proto(TensorProto.FLOAT, [])
    tp = helper.make_sequence_type_proto(
        onnx.TypeProto(map_type=onnx.TypeProto.Map(key_type=TensorProto.INT64, value_type=value_type))
    )
    msg = value_to_proto([{1: np.float32(0.5)}, {2: np.float32(1.5), 3: np.float32(2.5)}], tp, "maps")
    assert msg.elem_type == onnx.SequenceProto.MAP
    back = proto_to_value(onnx.SequenceProto.FromString(msg.SerializeToString()))
    assert [{k: float(v) for k, v in m.items()} for m in back] == [{1: 0.5}, {2: 1.5, 3: 2.5}]


def test_sequence_of_sparse_tensors_round_trips():
    from passcheck.runtime.feed_files import SparseValue, proto_to_value, value_to_proto

    tp = helper.make_sequence_type_proto(
        onnx.TypeProto(sparse_tensor_type=onnx.TypeProto.SparseTensor(elem_type=TensorProto.FLOAT))
    )
    sv = SparseValue(np.array([1.5, 2.5], np.float32), np.array([0, 3], np.int64), (4,))
    msg = value_to_proto([sv], tp, "sp")
    assert msg.elem_type == onnx.SequenceProto.SPARSE_TENSOR
    [back] = proto_to_value(onnx.SequenceProto.FromString(msg.SerializeToString()))
    assert back.dense_shape == (4,) and back.values.tolist() == [1.5, 2.5] and back.indices.tolist() == [0, 3]


def test_a_file_that_is_no_message_is_bad_input(tmp_path):
    m = _chain()
    d = tmp_path / "test_data_set_0"
    d.mkdir()
    (d / "input_0.pb").write_bytes(b"\xff\xff\xff\xff")
    with pytest.raises(FeedError, match=r"input_0\.pb: not a serialized TensorProto"):
        read_feeds(tmp_path, m)


@pytest.mark.parametrize("key_type", [TensorProto.INT8, TensorProto.INT64, TensorProto.UINT32, TensorProto.UINT64])
def test_maps_with_integer_keys_round_trip(key_type):
    from passcheck.runtime.feed_files import proto_to_value, value_to_proto

    tp = onnx.TypeProto(
        map_type=onnx.TypeProto.Map(key_type=key_type, value_type=helper.make_tensor_type_proto(TensorProto.FLOAT, []))
    )
    msg = value_to_proto({3: np.float32(0.5), 7: np.float32(1.5)}, tp, "m")
    assert list(msg.keys) == [3, 7] and not msg.string_keys
    back = proto_to_value(onnx.MapProto.FromString(msg.SerializeToString()))
    assert {k: float(v) for k, v in back.items()} == {3: 0.5, 7: 1.5}


@pytest.mark.parametrize("suffix", [".json", ".pb", ".zip"])
def test_a_feeds_file_that_is_not_npz_is_refused_by_name(tmp_path, suffix):
    f = tmp_path / f"feeds{suffix}"
    f.write_bytes(b"{}")
    with pytest.raises(FeedError, match=r"expected a \.npz file or a folder in the ONNX backend-test layout"):
        read_feeds(f, _chain())


def test_a_profile_that_disagrees_with_the_fetched_outputs_is_not_used(monkeypatch):
    from passcheck.runtime import observe as obs

    real = obs._profiled

    def planted(outputs, trace):  # a profile whose shapes are wrong for every node
        return {k: obs.TensorMeta((77,), v.dtype) for k, v in real(outputs, trace).items()}

    monkeypatch.setattr(obs, "_profiled", planted)
    observed, _ = obs.observe(_chain(), {"x": np.ones((3, 2), np.float32)})
    assert observed["r"] == obs.TensorMeta((3, 2), np.dtype(np.float32))


def test_observation_copy_never_exposes_an_input_backed_by_an_initializer():
    # invalid (w is defined twice), as a pass output can be: w stays the input, not an extra output
    m = _model(
        [_t("x", TensorProto.FLOAT, [2]), _t("w", TensorProto.FLOAT, [1])],
        [helper.make_node("Relu", ["x"], ["w"])],
        inits=[helper.make_tensor("w", TensorProto.FLOAT, [1], [0.5])],
    )
    copy, added = observation_copy(m, ["w"])
    assert added == [] and [o.name for o in copy.graph.output] == ["x"]


def test_reference_engine_is_chosen_by_value_not_by_identity():
    from passcheck.runtime.observe import TensorMeta, observe

    engine = "".join(["refer", "ence"])  # as read from a command line: equal to, not the same object as, the literal
    observed, unobservable = observe(_chain(), {"x": np.ones((2, 2), np.float32)}, engine=engine)
    assert unobservable == {} and isinstance(observed["r"], np.ndarray) and not isinstance(observed["r"], TensorMeta)


def test_an_evaluator_that_raises_limits_coverage_instead_of_crashing(monkeypatch):
    from passcheck.runtime import reference
    from passcheck.runtime.observe import with_subscopes

    def broken(model, feeds):
        raise RuntimeError("evaluator broke")

    monkeypatch.setattr(reference, "run_reference", broken)
    observed, why = with_subscopes(
        _chain(), {"x": np.ones((2, 2), np.float32)}, {"y": 1}, {"If#0/t": "inside a subgraph; use --engine reference"}
    )
    assert observed == {"y": 1}
    assert why == {
        "If#0/t": "inside a subgraph; the reference evaluator could not run the model: RuntimeError: evaluator broke"
    }
