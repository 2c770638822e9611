"""Triggers of onnxruntime's transformer fusions are observed under every optimizer class the offered types run
(:func:`passcheck.coverage.ort_fusions.triggers`), not only the fixed types' classes: a fusion only Sam2OnnxModel
constructs (FusionLayerNormalizationNCHW) is seen to fire on a layer norm over the channel axis. Real optimizer."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.coverage import ort_fusions


def _layer_norm_over_channels():
    """``x: float[1, 4, 2, 3]`` normalised over axis 1 (mean, variance, epsilon 1e-6), scaled and shifted by
    per-channel ``w``, ``b`` of shape [4, 1, 1]; opset 17 (``axes`` an attribute, as the fusion reads it)."""
    const = {
        "two": np.array(2.0, np.float32),
        "eps": np.array(1e-6, np.float32),
        "w": np.linspace(0.5, 2.0, 4, dtype=np.float32).reshape(4, 1, 1),
        "b": np.linspace(-1.0, 1.0, 4, dtype=np.float32).reshape(4, 1, 1),
    }
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["m"], axes=[1], keepdims=1),
        helper.make_node("Sub", ["x", "m"], ["d"]),
        helper.make_node("Pow", ["d", "two"], ["d2"]),
        helper.make_node("ReduceMean", ["d2"], ["v"], axes=[1], keepdims=1),
        helper.make_node("Add", ["v", "eps"], ["ve"]),
        helper.make_node("Sqrt", ["ve"], ["s"]),
        helper.make_node("Div", ["d", "s"], ["n"]),
        helper.make_node("Mul", ["n", "w"], ["nw"]),
        helper.make_node("Add", ["nw", "b"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "ln_nchw",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 2, 3])],
        [numpy_helper.from_array(v, k) for k, v in const.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_a_fusion_only_an_own_class_type_constructs_is_seen_firing():
    seen = ort_fusions.triggers(_layer_norm_over_channels())
    effect = seen.get("ort-transformers:fusion:FusionLayerNormalizationNCHW", "")
    assert effect.startswith("ort-transformers:sam2: FusionLayerNormalizationNCHW replaced"), seen
