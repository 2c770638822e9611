"""The numeric oracle does not blame a pass for the input model's own overflow (M168, IEEE 754 §7.4).

A Conv followed by a BatchNormalization whose scale is below 1, on feeds near float32's largest value: the
unfused Conv overflows to inf, which BatchNormalization keeps; onnxruntime's Conv+BatchNormalization fusion
(``ort:basic``) scales the weights first and stays finite. Neither is wrong in the reals: those positions are
unchecked. A pass that makes a finite reference value non-finite, or moves a division by zero's inf (§7.3, no
overflow), is still a wrong result. Real onnxruntime sessions and onnx's reference evaluator."""

from __future__ import annotations

import contextlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.api import check_model
from passcheck.oracles.overflow import overflowed_outputs
from passcheck.testing import as_adapter, registered

BIG = np.float32(3.0e38)


def conv_bn(scale: float = 0.25) -> onnx.ModelProto:
    """y = BatchNormalization(Conv(x, ones), scale=[scale, 2*scale], mean 0, var 1, eps 0): float32[1, 2, 2, 2]."""
    inits = [
        numpy_helper.from_array(np.ones((2, 2, 1, 1), np.float32), "w"),
        numpy_helper.from_array(np.array([scale, 2 * scale], np.float32), "s"),
        numpy_helper.from_array(np.zeros(2, np.float32), "b"),
        numpy_helper.from_array(np.zeros(2, np.float32), "m"),
        numpy_helper.from_array(np.ones(2, np.float32), "v"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"]),
        helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["y"], epsilon=0.0),
    ]
    info = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 2, 2, 2]) for n in ("x", "y")]
    graph = helper.make_graph(nodes, "conv_bn", info[:1], info[1:], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)], ir_version=8)


def near_max() -> np.ndarray:
    """Feeds near float32's max at 3 of 4 pixels (their channel sum overflows), 1.0 at pixel (0, 0)."""
    x = np.full((1, 2, 2, 2), BIG, np.float32)
    x[0, :, 0, 0] = 1.0
    return x


def judged(model, pass_, x):
    """The cell of ``pass_`` (an id or a callable) on ``model`` fed ``x``."""
    with registered(as_adapter(pass_)) if callable(pass_) else contextlib.nullcontext(pass_) as pid:
        report = check_model(model, [pid], feeds=[{"x": x}], name="numeric/overflow", isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == pid]
    return cell


def scaled_up(model: onnx.ModelProto) -> onnx.ModelProto:
    """A wrong pass: BatchNormalization's scale replaced by float32's max (finite values become inf)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    (s,) = [i for i in out.graph.initializer if i.name == "s"]
    s.CopyFrom(numpy_helper.from_array(np.full(2, BIG, np.float32), "s"))
    return out


def test_the_fusion_that_stays_finite_where_the_unfused_conv_overflows_is_unchecked_not_wrong():
    cell = judged(conv_bn(), "ort:basic", near_max())
    assert cell.status == "changed", cell  # the Conv and BatchNormalization were fused
    assert not [f.message for f in cell.findings if f.oracle == "numeric"], cell.findings
    assert cell.verdict == "unchecked"  # a verdict is a promise: the overflowed positions were not compared
    why = cell.unchecked["output 'y'"]
    assert "6 of 8 positions" in why and "Conv overflows float32" in why, why


def test_a_pass_that_turns_finite_values_into_inf_is_still_wrong_with_or_without_overflow_beside_it():
    finite = judged(conv_bn(), scaled_up, np.full((1, 2, 2, 2), 2.0, np.float32))
    (f,) = [f for f in finite.findings if f.oracle == "numeric"]
    assert "±inf positions differ" in f.message, f.message
    mixed = judged(conv_bn(), scaled_up, near_max())  # pixel (0, 0): 0.5 in the input's run, inf after
    (f,) = [f for f in mixed.findings if f.oracle == "numeric"]
    assert "±inf positions differ" in f.message and "the input's overflow: not compared" in f.message, f.message


def divide() -> onnx.ModelProto:
    """y = Div(x, z), float32[4]."""
    info = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [4]) for n in ("x", "z", "y")]
    graph = helper.make_graph([helper.make_node("Div", ["x", "z"], ["y"])], "div", info[:2], info[2:])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], ir_version=8)


def guarded(model: onnx.ModelProto) -> onnx.ModelProto:
    """A wrong pass: the divisor clamped to at least 1 (x / 0 = inf becomes x)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    out.graph.initializer.append(numpy_helper.from_array(np.ones(1, np.float32), "one"))
    out.graph.node.insert(0, helper.make_node("Max", ["z", "one"], ["zz"]))
    out.graph.node[1].input[1] = "zz"
    return out


def test_a_division_by_zero_is_no_overflow_and_a_pass_that_changes_its_inf_is_wrong():
    model, x, z = divide(), np.array([1, 2, 3, 4], np.float32), np.array([1, 0, 1, 1], np.float32)
    assert overflowed_outputs(model, {"x": x, "z": z}) == {}  # float64 says inf too: IEEE 754 §7.3, not §7.4
    with registered(as_adapter(guarded)) as pid:
        report = check_model(model, [pid], feeds=[{"x": x, "z": z}], name="numeric/div0", isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == pid]
    assert any(f.oracle == "numeric" and "±inf positions differ" in f.message for f in cell.findings), cell


def test_only_an_overflow_from_finite_values_is_the_models_own():
    assert set(overflowed_outputs(conv_bn(), {"x": near_max()})) == {"y"}
    fed_inf = near_max()
    fed_inf[0, 0, 1, 1] = np.inf  # a non-finite feed: the run's inf came in, it was not made
    assert overflowed_outputs(conv_bn(), {"x": fed_inf}) == {}
    assert overflowed_outputs(conv_bn(), {"x": np.ones((1, 2, 2, 2), np.float32)}) == {}
    # Exp(100) overflows float32 (e^100 > 3.4e38) and is finite in float64; Exp(-inf) = 0 hides its feed's -inf
    info = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in ("x", "y")]
    graph = helper.make_graph([helper.make_node("Exp", ["x"], ["y"])], "exp", info[:1], info[1:])
    exp = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    assert set(overflowed_outputs(exp, {"x": np.array([0, 100], np.float32)})) == {"y"}
    assert overflowed_outputs(exp, {"x": np.array([-np.inf, 100], np.float32)}) == {}  # not from finite feeds
