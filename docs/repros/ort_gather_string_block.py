"""onnxruntime 1.32.0's CPU Gather on a string tensor copies one string per gathered block instead of the
block's `SizeFromDimension(axis + 1)` strings: y = Gather(data, [1, 0], axis) on a 2x3x4 string `data`
returns the first string of each gathered block and empty strings for the rest (22 of 24 elements wrong at
axis 0, 12 of 16 at axis 1); the last axis (blocks of one element) is right. Numeric types are right at every axis (their branch
memcpy's the block's bytes). Run with every graph optimization disabled: the kernel itself, no pass.
Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

data = np.array([str(k) for k in range(24)], dtype=object).reshape(2, 3, 4)
wrong = []
for axis in (0, 1, 2):
    graph = helper.make_graph(
        [helper.make_node("Gather", ["data", "indices"], ["y"], axis=axis)],
        "g",
        [helper.make_tensor_value_info("data", onnx.TensorProto.STRING, [2, 3, 4])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.STRING, list(np.take(data, [1, 0], axis=axis).shape))],
        [numpy_helper.from_array(np.array([1, 0], np.int64), "indices")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(model, full_check=True)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    y = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(
        None, {"data": data}
    )[0]
    expected = np.take(data, [1, 0], axis=axis)  # onnx Operators.md Gather: numpy.take
    bad = int((y != expected).sum())
    print(
        f"axis {axis}: {bad} of {y.size} elements differ; got {y.ravel().tolist()[:8]} expected {expected.ravel().tolist()[:8]}"
    )
    if bad:
        wrong.append(axis)
sys.exit(1 if wrong else 0)
