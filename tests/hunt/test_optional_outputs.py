"""The optional outputs a node writes, in the site kind (round 8e, M70; passcheck/hunt/site_kind.py
``optional_slots``). IR.md §Optional Inputs and Outputs: an optional output is omitted by leaving the trailing ones
out or by the empty name ``""``; onnxruntime's ConstantFolding fetched every output slot of a node it folds, the
empty one too (docs/recall.md R29), so a rewrite tried at a node writing its outputs one way must stay new where it
writes them another way. Real generated bases, real onnx schemas."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.hunt.space import Base, Item, bases

PASS = "ort:basic"
REWRITE = "empty-optional-outputs"


def _maxpool(outputs: list[str]) -> onnx.ModelProto:
    """``MaxPool(x)`` writing ``outputs`` (Y, then the optional Indices: given, ``""`` or left off)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 2, 2])
    node = helper.make_node("MaxPool", ["x"], outputs, kernel_shape=[2, 2], strides=[2, 2])
    graph = helper.make_graph([node], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])


def test_the_output_slots_read_off_the_schema():
    from passcheck.hunt.site_kind import types

    got = {k: types(_maxpool(o))["#0:MaxPool"] for k, o in {"-": ["y"], "0": ["y", ""], "+": ["y", "i"]}.items()}
    assert got == {k: f"4:FLOAT,INT64;>Indices{k}" for k in "-0+"}, got  # kernel_shape: INT64
    assert types(_maxpool(["y", ""]))["y"].endswith(";>Indices0")  # a value carries its producer's slots


@pytest.fixture(scope="module")
def layernorm():
    return next(
        b for b in bases(["generated/layernormalization-17.optional-input"], generated=True) if b.form == "common"
    )


def test_a_rewrite_tried_where_the_outputs_are_omitted_is_new_where_they_are_written_empty(layernorm):
    """The same LayerNormalization base with Mean and InvStdDev written ``""`` (what ``empty-optional-outputs``
    writes) is another site kind: ``extra-readers`` tried on the base stays new on it."""
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.mutations.registry import REWRITES

    written = REWRITES[REWRITE].apply(layernorm.model(), None)[0]
    assert list(written.graph.node[0].output)[1:] == ["", ""]
    other = Base(layernorm.case, "written-empty", _model=written)
    s = Scheduler([layernorm, other], [PASS], seed=1)
    s.mark(Item(layernorm.id, "extra-readers", PASS))
    fresh = Item(other.id, "extra-readers", PASS)
    assert s.triples(fresh) - s.tried == s.triples(fresh)
