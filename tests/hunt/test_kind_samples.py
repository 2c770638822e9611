"""Each neighbour kind's sites are sampled with a generator of its own (round 8e, M71; passcheck/hunt/variation.py
``neighbours``): with one generator across the kinds in turn, a kind added to the module (or offered on a base where
it was not) moved every later kind's sample, and every hunt with it. A real model with four float constants, so each
``value-*`` kind has more sites than :data:`~passcheck.hunt.variation.PER_KIND`."""

from __future__ import annotations

import random

import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation

CONSTANTS = ("c0", "c1", "c2", "c3")


@pytest.fixture(scope="module")
def model() -> onnx.ModelProto:
    import numpy as np

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    inits = [numpy_helper.from_array(np.full((3,), k + 2, np.float32), c) for k, c in enumerate(CONSTANTS)]
    names = ["x", *[f"t{k}" for k in range(len(CONSTANTS) - 1)], "y"]
    nodes = [helper.make_node("Add", [names[k], c], [names[k + 1]]) for k, c in enumerate(CONSTANTS)]
    graph = helper.make_graph(nodes, "g", [x], [y], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _value(forms: list[str]) -> list[str]:
    return [f for f in forms if variation.family(f) == "value"]


def test_a_kind_added_before_the_others_moves_no_other_kinds_sample(model, monkeypatch):
    before = variation.neighbours(model, random.Random(1))
    assert len([f for f in _value(before) if variation.kind(f) == "vary:value-one"]) == variation.PER_KIND
    real = variation._candidates

    def more(m):  # a kind sorted before every other one, at each constant
        yield from (("aaa-added", c) for c in CONSTANTS)
        yield from real(m)

    monkeypatch.setattr(variation, "_candidates", more)
    after = variation.neighbours(model, random.Random(1))
    assert [f for f in after if "aaa-added" not in f] == before
    assert len([f for f in after if "aaa-added" in f]) == variation.PER_KIND


def test_the_samples_still_follow_the_seed(model):
    """Another seed draws other sites for some kind (the samples are not fixed by the kind alone)."""
    got = {tuple(_value(variation.neighbours(model, random.Random(seed)))) for seed in range(6)}
    assert len(got) > 1, got
