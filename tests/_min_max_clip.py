"""docs/found.md row 82's model: ``y = Min(Max(x, lo), hi)`` with ``lo`` of shape ``[1, 1, 1]``,
``x: float[N, 8]``, ``y`` declared ``float[1, N, 8]`` (Min/Max broadcast multidirectionally, Broadcasting.md).
onnxscript 0.7.2's FuseMaxMinToClip writes a Clip that keeps ``x``'s rank: ``y`` comes out ``[N, 8]``."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model() -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Max", ["x", "lo"], ["a"]), helper.make_node("Min", ["a", "hi"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "N", 8])],
        [
            numpy_helper.from_array(np.full((1, 1, 1), -0.5, np.float32), "lo"),
            numpy_helper.from_array(np.array(0.5, np.float32), "hi"),
        ],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
