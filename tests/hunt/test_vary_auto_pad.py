"""M422: the ``auto_pad`` neighbour is not offered beside ``pads`` (passcheck/hunt/variation.py ``_pads_exclude``).

Operators.md Conv / ConvTranspose / the pools: ``pads`` "cannot be used simultaneously with auto_pad attribute", so a
node writing ``pads`` admits only ``NOTSET``; onnxruntime refuses the pair at session creation, and round 19k's hunt
drew 58 such neighbours on the QDQ Conv bases, all invalid. A Conv without ``pads`` keeps the move, and the neighbour
built there runs in onnxruntime. Planted break: ``_pads_exclude`` returning False → the first test fails.
"""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation

W = np.arange(2 * 3 * 3 * 3, dtype=np.float32).reshape(2, 3, 3, 3) / 50


def _conv(**attrs) -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "W"], ["y"], name="cv", kernel_shape=[3, 3], **attrs)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 6, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(W, "W")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _auto_pad_forms(model: onnx.ModelProto) -> set[str]:
    forms: set[str] = set()
    for seed in range(6):
        forms |= {f for f in variation.neighbours(model, random.Random(seed)) if "attr-auto_pad" in f}
    return forms


def test_no_auto_pad_move_beside_pads():
    assert _auto_pad_forms(_conv(pads=[1, 1, 1, 1])) == set()


def test_a_conv_without_pads_keeps_the_move_and_it_runs():
    forms = _auto_pad_forms(_conv())
    assert forms, "no auto_pad neighbour offered on a Conv without pads"
    model = variation.build(_conv(), sorted(forms)[0])[0]
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (y,) = sess.run(None, {"x": np.ones((1, 3, 6, 6), np.float32)})
    assert y.shape[:2] == (1, 2), y.shape
