"""The axes-group neighbours (round 9e, M91; ``hunt/vary_axes.py``): a decomposed norm's reductions moved to
another axis together, or spelt with the other sign together. Real fusion-norm bases, real onnxruntime runs."""

from __future__ import annotations

import random

import numpy as np
import pytest

from passcheck.hunt import variation, vary_axes
from passcheck.hunt.space import bases


@pytest.fixture(scope="module")
def layernorm():
    return next(b for b in bases(["fusion-norm/layernorm-r3"], generated=False) if b.form == "common")


def _reduce_axes(model) -> list[list[int]]:
    from passcheck.hunt.graph_values import constants

    consts = constants(model)
    return [vary_axes._axes(n, consts) for n in model.graph.node if n.op_type == "ReduceMean"]


def _run(model, feeds):
    import onnxruntime as ort

    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def _feeds(model):
    from onnx import helper

    rng = np.random.default_rng(0)
    out = {}
    for i in model.graph.input:
        dims = [d.dim_value or 2 for d in i.type.tensor_type.shape.dim]
        out[i.name] = rng.standard_normal(dims).astype(helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type))
    return out


def test_a_layernorm_offers_a_move_of_both_reductions_and_the_other_spelling(layernorm):
    forms = variation.neighbours(layernorm.model(), random.Random(1), layernorm.case.bindings)
    kinds = {variation.kind(f)[len(variation.PREFIX) :] for f in forms}
    assert {vary_axes.MOVE, vary_axes.SIGN} <= kinds, forms
    move = next(f for f in forms if f.startswith(f"{variation.PREFIX}{vary_axes.MOVE}@"))
    assert len(variation.site_labels(layernorm.model(), move)) == 2  # both ReduceMean nodes of the group


def test_the_move_rewrites_every_reduction_of_the_group_and_is_another_valid_computation(layernorm):
    import onnx

    model = layernorm.model()
    forms = variation.neighbours(model, random.Random(1), layernorm.case.bindings)
    move = next(f for f in forms if f.startswith(f"{variation.PREFIX}{vary_axes.MOVE}@"))
    axis = int(move.rpartition("=")[2])
    moved, _ = variation.build(model, move)
    assert _reduce_axes(moved) == [[axis], [axis]]
    onnx.checker.check_model(moved, full_check=True)
    feeds = _feeds(model)
    (y,) = _run(moved, feeds)
    base_y = _run(model, feeds)[0]
    assert y.shape == base_y.shape  # keepdims 1: every reader broadcasts the moved axis back
    assert not np.allclose(y, base_y, atol=1e-3)  # another computation
    assert not variation.equivalent(model, move)


def test_the_sign_spelling_is_the_same_computation_and_declared_equivalent(layernorm):
    model = layernorm.model()
    forms = variation.neighbours(model, random.Random(1), layernorm.case.bindings)
    sign = next(f for f in forms if f.startswith(f"{variation.PREFIX}{vary_axes.SIGN}@"))
    spelt, _ = variation.build(model, sign)
    assert _reduce_axes(spelt) == [[2], [2]]  # [-1] at rank 3
    feeds = _feeds(model)
    np.testing.assert_allclose(_run(spelt, feeds)[0], _run(model, feeds)[0], rtol=1e-6)
    assert variation.equivalent(model, sign)


def test_reductions_over_other_axes_or_off_the_path_are_not_grouped():
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])
    ys = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("a", "b", "c")]
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["m"], name="r0", axes=[-1]),
        helper.make_node("Sub", ["x", "m"], ["a"], name="s"),
        helper.make_node("ReduceMean", ["a"], ["b"], name="r1", axes=[2]),
        helper.make_node("ReduceMean", ["x"], ["c"], name="r2", axes=[-1]),  # same axes, on no path with r0
        helper.make_node("ReduceSum", ["a"], ["d"], name="r3", axes=[1]),
    ]
    g = helper.make_graph(nodes, "g", [x], ys)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    got = {tuple(n.name for n in nodes): axes for nodes, axes, _ in vary_axes.groups(model, variation._inferred(model))}
    assert got == {("r0", "r1"): [2], ("r2",): [2], ("r3",): [1]}
