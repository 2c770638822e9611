"""Round 20d (session 41, M449): two bases the generator wrote against their op's own text, found among the gates'
drops (``passcheck generate --drops``). SwiGLU-28's doc names broadcasting only to deny it ("Inputs `A` and `B` must
have identical shapes; broadcasting is not applied"), yet the ``broadcast`` spelling read the word and wrote a
``[2, 3, 4] × [4]`` pair every tool refused; CausalConvWithState-27's weight is ``(channels, 1, k)`` (its input
text), yet with no domain-table row the recipe fed a ``[2, 3, 4]`` weight the reference evaluator refused ("W should
be …"). Each test runs the real reference evaluator on the form the generator writes."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs
import pytest
from onnx.reference import ReferenceEvaluator

from passcheck.generate import model as gen_model
from passcheck.generate import recipe, spellings
from passcheck.generate.pair import Ctx


def _node(op: str, opset: int) -> recipe.Node:
    return recipe.build_node(onnx.defs.get_schema(op, opset), opset)


@pytest.mark.parametrize(
    ("op", "opset", "states"),
    [("Add", 14, True), ("PRelu", 16, True), ("StringConcat", 20, True), ("SwiGLU", 28, False)],
)
def test_broadcasting_is_read_as_the_schema_states_it(op, opset, states):
    assert spellings.states_broadcasting(onnx.defs.get_schema(op, opset).doc) is states


def test_no_broadcast_pair_for_an_op_whose_text_denies_broadcasting():
    swiglu = _node("SwiGLU", 28)
    assert spellings.broadcast(swiglu, Ctx(28, None)) == []
    add = _node("Add", 14)
    (pair,) = spellings.broadcast(add, Ctx(14, None))
    assert set(pair.forms) == {"common", "explicit-expand", "explicit-unsqueeze"}


def _causal_depthwise(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """CausalConvWithState-27's output with no past state and no bias: each channel convolved causally (zeros
    before the first position) with its own kernel ``w[c, 0]``."""
    k = w.shape[-1]
    padded = np.concatenate([np.zeros((*x.shape[:2], k - 1), x.dtype), x], axis=-1)
    y = np.zeros_like(x, dtype=np.float64)
    for t in range(x.shape[-1]):
        y[..., t] = (padded[..., t : t + k] * w[None, :, 0, :]).sum(-1)
    return y


def test_causalconvwithstate_recipe_follows_its_weight_layout():
    node = _node("CausalConvWithState", 27)
    shapes = {i.name: i.shape for i in node.inputs}
    assert shapes["weight"] == (shapes["input"][1], 1, 4), shapes
    m = gen_model.to_model(node, "static")
    onnx.checker.check_model(m, full_check=True)
    rng = np.random.default_rng(0)
    feeds = {i.name: rng.standard_normal(i.shape).astype(np.float32) for i in node.inputs if i.value is None}
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in m.graph.initializer}
    y = ReferenceEvaluator(m).run(None, feeds)[0]
    w = feeds.get("weight", inits.get("weight"))
    np.testing.assert_allclose(y, _causal_depthwise(feeds["input"], w), rtol=1e-5, atol=1e-5)
