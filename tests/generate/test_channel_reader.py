"""The ``channels-even`` variants of Conv and ConvTranspose (``domains.json``): even channel counts with a reader of
the output channels after the node (:func:`passcheck.generate.model._channel_reader`), so a group neighbour
(:mod:`passcheck.hunt.vary_group`) applies and every reader stays valid. Judged with the onnx checker and
onnxruntime runs."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnx.defs
import onnxruntime as ort
import pytest

from passcheck.generate import model, recipe
from passcheck.hunt import variation, vary_group


def _variant(op: str, since: int) -> onnx.ModelProto:
    schema = onnx.defs.get_schema(op, since)
    node = recipe.build_node(schema, max(since, 7), override=recipe.table_row(schema)["variants"]["channels-even"])
    return model.to_model(node)


def _run(m: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"X": x})[0]


@pytest.mark.parametrize(
    ("op", "since", "reader", "groups", "shape"),
    [
        ("Conv", 11, "Add", [2], (1, 4, 3, 3)),
        ("Conv", 22, "Add", [2], (1, 4, 3, 3)),
        ("ConvTranspose", 11, "BatchNormalization", [2, 4], (1, 4, 6, 6)),
        ("ConvTranspose", 22, "BatchNormalization", [2, 4], (1, 4, 6, 6)),
    ],
)
def test_the_variant_reads_every_output_channel_and_every_group_neighbour_runs(op, since, reader, groups, shape):
    m = _variant(op, since)
    assert [n.op_type for n in m.graph.node] == [op, reader]
    assert m.graph.node[1].input[0] == m.graph.node[0].output[0] and m.graph.node[1].output[0] == "Y"
    onnx.checker.check_model(m, full_check=True)
    x = np.random.default_rng(0).standard_normal([d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim])
    assert _run(m, x.astype(np.float32)).shape == shape
    forms = [f for f in variation.neighbours(m, random.Random(0)) if variation.family(f) == vary_group.KIND]
    assert [f.rsplit("=", 1)[1] for f in forms] == [str(g) for g in groups], forms
    for form in forms:
        grouped, _ = variation.build(m, form)
        onnx.checker.check_model(grouped, full_check=True)
        assert _run(grouped, x.astype(np.float32)).shape == shape  # the reader's channels still hold


def test_the_channel_count_is_read_off_the_weight_as_the_schema_states():
    w = recipe.Input("W", onnx.TensorProto.FLOAT, (4, 2, 3, 3))
    assert recipe.channels("Conv", [w], {}) == 4
    assert recipe.channels("ConvTranspose", [w], {"group": 3}) == 6  # [C, M/group, k, k]
    assert recipe.channels("Relu", [w], {}) is None
