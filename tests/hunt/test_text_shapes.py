"""The hunt's gate and the shape rules the docs state that no tool enforces (:mod:`passcheck.oracles.text_shapes`):
round 12h's ``ConcatFromSequence<axis=0>`` neighbour with ``b: [N, 0]`` beside ``a: [N, 3]`` (the checker, strict
inference and onnxruntime 1.32.0 accept it) is dropped as passcheck's fault; the same neighbour of the base
concatenating on axis 1 is valid and judged. Real checker, real inference, real onnxruntime sessions."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from passcheck.hunt import fed_shapes, variation, vary_probe
from passcheck.hunt.probe import Setting
from passcheck.oracles.text_shapes import breaks

F = TensorProto.FLOAT
FORM = "vary:input-dim-zero@b=1"


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def _seq(axis: int, b=("N", 3), new_axis: int = 0, insert: bool = False) -> onnx.ModelProto:
    """``ConcatFromSequence<axis>(SequenceConstruct(a, b))`` (``insert``: ``SequenceInsert(SequenceConstruct(a), b)``),
    ``a: float[N, 3]``."""
    a = helper.make_tensor_value_info("a", F, ["N", 3])
    bv = helper.make_tensor_value_info("b", F, list(b))
    y = helper.make_tensor_value_info("y", F, [None] * (2 + new_axis))
    if insert:
        nodes = [
            helper.make_node("SequenceConstruct", ["a"], ["s0"]),
            helper.make_node("SequenceInsert", ["s0", "b"], ["s"]),
        ]
    else:
        nodes = [helper.make_node("SequenceConstruct", ["a", "b"], ["s"])]
    nodes.append(helper.make_node("ConcatFromSequence", ["s"], ["y"], name="cat", axis=axis, new_axis=new_axis))
    model = helper.make_model(helper.make_graph(nodes, "g", [a, bv], [y]), opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def _feeds(b_cols: int) -> dict:
    return {"a": np.ones((2, 3), np.float32), "b": np.ones((2, b_cols), np.float32)}


def test_the_tools_accept_the_round_12h_neighbour_and_the_rule_does_not():
    bad = _seq(0, b=("N", 0))
    onnx.checker.check_model(bad, full_check=True)
    onnx.shape_inference.infer_shapes(bad, strict_mode=True, data_prop=True)
    s = ort.InferenceSession(bad.SerializeToString(), providers=["CPUExecutionProvider"])
    assert s.run(None, _feeds(0))[0].shape == (4, 3)  # runs: rows [2, 4) of the output come from no input
    assert fed_shapes.error(bad, _feeds(0)) is None  # inference at the feeds' shapes sees no element shape
    why = fed_shapes.text_break(bad, _feeds(0))
    assert why and why.startswith("concat-from-sequence-elements: cat:") and "differ on axis 1" in why, why
    assert fed_shapes.text_break(_seq(1, b=("N", 0)), _feeds(0)) is None  # on axis 1 the 0 is the axis's own
    assert fed_shapes.text_break(_seq(0), _feeds(3)) is None


def test_sequence_insert_new_axis_and_unknown_producers():
    assert breaks(_seq(1, b=(2, 0), insert=True)) == []
    assert len(breaks(_seq(0, b=(2, 0), insert=True))) == 1  # a: [N, 3] against b: [2, 0] off the axis
    assert len(breaks(_seq(1, b=("N", 4), new_axis=1))) == 1  # numpy.stack: every axis, the axis too
    assert breaks(_seq(1, b=("N", 3), new_axis=1)) == []
    assert breaks(_seq(1, b=("M", 3))) == []  # two symbols: undecided, never broken
    split = _seq(0)
    split.graph.node[0].CopyFrom(helper.make_node("SplitToSequence", ["a"], ["s"], axis=1))
    assert breaks(split) == []  # the elements are not traced: undecided


def test_the_gate_drops_the_neighbour_as_passchecks_fault_and_keeps_the_valid_sibling(ex):
    bad_base, good_base = _seq(0), _seq(1)
    for base in (bad_base, good_base):
        built = variation.build(base, FORM)
        assert built is not None, base
        b = next(v for v in built[0].graph.input if v.name == "b")
        assert [d.dim_param or d.dim_value for d in b.type.tensor_type.shape.dim] == ["N", 0]
    out = vary_probe.judge(Setting("vary-test/cfs0"), bad_base, FORM, "ort:basic", ex)
    assert out.status == vary_probe.INVALID and out.reason.startswith(vary_probe.TEXT_RULE), out
    assert "concat-from-sequence-elements" in out.reason
    kept = vary_probe.judge(Setting("vary-test/cfs1"), good_base, FORM, "ort:basic", ex)
    assert kept.status == "done", kept


def test_the_generator_gate_drops_a_pair_whose_form_breaks_the_rule_as_passchecks():
    from passcheck.generate.gate import gate

    def never(*_a):
        raise AssertionError("the rule decides before any run")

    bad = _seq(0, b=(2, 0))
    bad.graph.input[0].CopyFrom(helper.make_tensor_value_info("a", F, [2, 3]))
    v = gate({"common": bad}, [_feeds(0)], never)
    assert (v.ok, v.category) == (False, "passcheck") and "concat-from-sequence-elements" in v.detail, v


def _conv(op: str, x_channels, w_shape, group: int = 1) -> onnx.ModelProto:
    """``op(x, w, group=group)`` (QLinearConv with scalar scales and zero points), ``x: [1, x_channels, 3, 3]``, ``w``
    an initializer of ``w_shape`` (1 x 1 kernel)."""
    from onnx import numpy_helper

    integer = op in ("ConvInteger", "QLinearConv")
    et, dt = (TensorProto.UINT8, np.uint8) if integer else (F, np.float32)
    inits = [numpy_helper.from_array(np.ones(w_shape, dt), "w")]
    names = ["x", "w"]
    if op == "QLinearConv":
        inits += [
            numpy_helper.from_array(np.array(v, t), n) for n, v, t in (("s", 0.5, np.float32), ("z", 0, np.uint8))
        ]
        names = ["x", "s", "z", "w", "s", "z", "s", "z"]
    out_type = TensorProto.INT32 if op == "ConvInteger" else et
    node = helper.make_node(op, names, ["y"], name="conv", group=group)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", et, [1, x_channels, 3, 3])],
        [helper.make_tensor_value_info("y", out_type, [None] * 4)],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)


def _ort_runs(model: onnx.ModelProto) -> bool:
    dt = np.uint8 if model.graph.input[0].type.tensor_type.elem_type == TensorProto.UINT8 else np.float32
    c = model.graph.input[0].type.tensor_type.shape.dim[1].dim_value
    try:
        s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        s.run(None, {"x": np.ones((1, c, 3, 3), dt)})
    except Exception:  # noqa: BLE001 - onnxruntime's own exception types
        return False
    return True


@pytest.mark.parametrize(
    ("op", "x_channels", "w_shape", "group"),
    [
        ("Conv", 1, (4, 2, 1, 1), 2),  # round 15g's axis-one neighbour: 1 channel against 2 x 2
        ("Conv", 3, (4, 2, 1, 1), 1),
        ("ConvInteger", 3, (4, 2, 1, 1), 1),
        ("ConvTranspose", 3, (2, 4, 1, 1), 1),  # W is (C x M/group ...): 3 channels against W.shape[0] 2
    ],
)
def test_a_convolution_whose_channels_differ_from_its_weight_passes_the_tools_and_breaks_the_rule(
    op, x_channels, w_shape, group
):
    bad = _conv(op, x_channels, w_shape, group)
    onnx.checker.check_model(bad, full_check=True)
    onnx.shape_inference.infer_shapes(bad, strict_mode=True, data_prop=True)  # no error: inference does not check
    assert not _ort_runs(bad)  # onnxruntime 1.32.0 refuses it at run time
    (why,) = breaks(bad)
    assert why.startswith("conv-input-channels: conv: input channels"), why
    assert fed_shapes.text_break(bad, {"x": np.ones((1, x_channels, 3, 3), np.float32)}) == why


@pytest.mark.parametrize(
    ("op", "x_channels", "w_shape", "group"),
    [
        ("Conv", 4, (4, 2, 1, 1), 2),
        ("Conv", 3, (3, 1, 1, 1), 3),  # depthwise
        ("ConvInteger", 2, (4, 2, 1, 1), 1),
        ("QLinearConv", 4, (6, 2, 1, 1), 2),
        ("ConvTranspose", 2, (2, 4, 1, 1), 2),  # group multiplies the output channels, not the input's
    ],
)
def test_a_convolution_with_matching_channels_runs_and_is_not_broken(op, x_channels, w_shape, group):
    good = _conv(op, x_channels, w_shape, group)
    assert _ort_runs(good)
    assert breaks(good) == []


def test_a_symbolic_channel_count_or_a_qlinear_mismatch():
    sym = _conv("Conv", 1, (4, 2, 1, 1), 2)
    sym.graph.input[0].type.tensor_type.shape.dim[1].dim_param = "C"
    assert breaks(sym) == []  # a symbol: undecided, never broken
    bad = _conv("QLinearConv", 3, (6, 2, 1, 1), 2)  # the weight is input 3
    assert not _ort_runs(bad)
    assert len(breaks(bad)) == 1


@pytest.mark.parametrize(
    ("op", "x_channels", "w_shape"),
    [("Conv", 4, (3, 2, 1, 1)), ("ConvInteger", 4, (3, 2, 1, 1)), ("QLinearConv", 4, (5, 2, 1, 1))],
)
def test_feature_maps_not_a_multiple_of_group_pass_the_tools_and_break_the_rule(op, x_channels, w_shape):
    """Conv's W text: "W.shape[0] mod G == 0"; the input channels match (4 == 2 x 2), the feature maps do not."""
    bad = _conv(op, x_channels, w_shape, 2)
    onnx.checker.check_model(bad, full_check=True)
    onnx.shape_inference.infer_shapes(bad, strict_mode=True, data_prop=True)  # no error: inference does not check
    assert not _ort_runs(bad)  # onnxruntime 1.32.0: "Output channels M is not divisible by group"
    (why,) = breaks(bad)
    assert why.startswith("conv-feature-maps-group: conv: feature maps"), why
    assert breaks(_conv(op, x_channels, (w_shape[0] + 1, 2, 1, 1), 2)) == []  # a multiple of 2: runs, kept
    assert _ort_runs(_conv(op, x_channels, (w_shape[0] + 1, 2, 1, 1), 2))


def test_onnx_inference_refuses_convtranspose_channels_not_divisible_by_group_itself():
    """ConvTranspose's counterpart (C = W.shape[0] divided into groups) is onnx inference's own error, so the rule
    leaves ConvTranspose out."""
    bad = _conv("ConvTranspose", 3, (3, 1, 1, 1), 2)
    with pytest.raises(onnx.shape_inference.InferenceError, match="divisible by group"):
        onnx.shape_inference.infer_shapes(bad, strict_mode=True)
    assert not any(b.startswith("conv-feature-maps-group") for b in breaks(bad))
