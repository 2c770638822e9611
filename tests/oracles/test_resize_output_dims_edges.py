"""Edges of the conformance rule resize-output-dims (Operators.md Resize-10/11/13/18/19, Upsample-7/9/10):
where each version keeps its scales, Resize-18's negative ``axes``, sizes instead of scales, scales that are
not constants, ``tf_crop_and_resize`` (the roi scales the output too), and an input of unknown rank. Each test
fails with the rule's decision at that edge changed (bench/mutation_score.py survivors of session 19)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from passcheck.oracles.conformance import evaluate

F = onnx.TensorProto.FLOAT


def _model(node, out_dims, inits, x_dims=(1, 2, 3, 3), opset=13, extra_inputs=()):
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", F, x_dims), *extra_inputs],
        [helper.make_tensor_value_info("y", F, out_dims)],
        initializer=[numpy_helper.from_array(v, k) for k, v in inits.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def _violations(model):
    return [v.message for v in evaluate(model).violations if v.rule == "resize-output-dims"]


def _undecided(model):
    return [why for key, why in evaluate(model).undecided.items() if key.startswith("resize-output-dims@")]


SC2 = np.array([1.0, 1.0, 2.0, 2.0], np.float32)


@pytest.mark.parametrize(
    ("op", "opset", "inputs", "attrs"),
    [
        ("Resize", 10, ["x", "sc"], {}),
        ("Resize", 11, ["x", "", "sc"], {}),
        ("Upsample", 7, ["x"], {"scales": [1.0, 1.0, 2.0, 2.0]}),
        ("Upsample", 9, ["x", "sc"], {}),
    ],
)
def test_each_version_s_scales_are_read_where_that_version_keeps_them(op, opset, inputs, attrs):
    """Resize-10 takes (X, scales), Resize-11 on (X, roi, scales, sizes); Upsample-7 has a ``scales``
    attribute, Upsample-9 an input. 3 x 2 = 6, not the stated 7, in every version."""
    node = helper.make_node(op, inputs, ["y"], mode="nearest", **attrs)
    inits = {"sc": SC2} if "sc" in inputs else {}
    (message,) = _violations(_model(node, [1, 2, 7, 7], inits, opset=opset))
    assert message.startswith("output dim 2 is stated 7; floor(3 x 2.0) = 6 ")


def test_a_stated_dim_below_the_floor_is_a_violation_too():
    node = helper.make_node("Resize", ["x", "", "sc"], ["y"], mode="nearest")
    (message,) = _violations(_model(node, [1, 2, 5, 6], {"sc": SC2}))
    assert message.startswith("output dim 2 is stated 5; floor(3 x 2.0) = 6 ")


def test_resize_18_negative_axes_name_the_axes_counted_from_the_end():
    """``axes=[-2, -1]`` are axes 2 and 3 of a rank-4 input (Operators.md Resize-18: negative axes count back)."""
    node = helper.make_node("Resize", ["x", "", "sc"], ["y"], mode="nearest", axes=[-2, -1])
    sc = np.array([2.0, 1.0], np.float32)
    (message,) = _violations(_model(node, [1, 2, 6, 4], {"sc": sc}, opset=18))
    assert message.startswith("output dim 3 is stated 4; floor(3 x 1.0) = 3 ")
    assert _violations(_model(node, [1, 2, 6, 3], {"sc": sc}, opset=18)) == []


@pytest.mark.parametrize(("axes", "scales"), [([2, 3], [2.0]), ([3], [2.0, 2.0])])
def test_scales_and_axes_of_different_counts_are_named(axes, scales):
    node = helper.make_node("Resize", ["x", "", "sc"], ["y"], mode="nearest", axes=axes)
    model = _model(node, [1, 2, 6, 6], {"sc": np.array(scales, np.float32)}, opset=18)
    assert _violations(model) == [f"{len(scales)} scales for {len(axes)} axes"]


def test_sizes_instead_of_scales_leave_nothing_to_hold():
    node = helper.make_node("Resize", ["x", "", "", "sz"], ["y"], mode="nearest")
    model = _model(node, [1, 2, 7, 7], {"sz": np.array([1, 2, 7, 7], np.int64)})
    assert _violations(model) == [] and _undecided(model) == []


def test_scales_that_are_not_a_constant_are_undecided_not_held():
    node = helper.make_node("Resize", ["x", "", "sc"], ["y"], mode="nearest")
    sc = helper.make_tensor_value_info("sc", F, [4])
    model = _model(node, [1, 2, 7, 7], {}, extra_inputs=[sc])
    assert _violations(model) == [] and _undecided(model) == ["input 'sc' is not a constant"]
    assert _undecided(_model(node, [None] * 4, {}, extra_inputs=[sc])) == [], "no stated dim, no rule"


def test_tf_crop_and_resize_is_undecided_whatever_the_stated_dims():
    node = helper.make_node(
        "Resize", ["x", "roi", "sc"], ["y"], mode="linear", coordinate_transformation_mode="tf_crop_and_resize"
    )
    roi = np.array([0, 0, 0, 0, 1, 1, 0.5, 0.5], np.float32)
    model = _model(node, [1, 2, 7, 7], {"roi": roi, "sc": SC2})
    assert _violations(model) == []
    assert _undecided(model) == ["tf_crop_and_resize: the roi scales the output too"]


def test_an_input_of_unknown_rank_is_undecided_and_named():
    node = helper.make_node("Resize", ["x", "", "sc"], ["y"], mode="nearest")
    model = _model(node, [1, 2, 7, 7], {"sc": SC2}, x_dims=None)
    assert _violations(model) == []
    assert _undecided(model) == ["the rank of input 'x' is unknown (shape inference gave none)"]
