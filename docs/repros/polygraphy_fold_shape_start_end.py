"""Polygraphy's constant folding (``polygraphy surgeon sanitize --fold-constants``, ``FoldConstants`` with its
default ``fold_shapes=True``) folds ``Shape(x, start=1)`` to the whole shape of ``x``.

Operators.md §Shape (since opset 15): ``start`` and ``end`` select a slice of the dimensions ("the output will contain
dims [start, end)"). ``FoldConstants`` calls onnx-graphsurgeon's ``Graph.fold_constants(fold_shapes=True)``, whose
shape folders (``fold_shape``, ``fold_shape_gather``, ``fold_shape_slice`` in ``onnx_graphsurgeon/ir/graph.py``) take
``inp.shape`` of the Shape node's input without reading its ``start`` / ``end``. Here ``y = ConstantOfShape(Shape(x,
start=1))`` with ``x: float[2, 3, 4]`` is ``y: float[3, 4]``; the folded model computes a ``[2, 3, 4]`` tensor.
Exits 1 while the folded model's output differs from the given model's; 0 once they agree.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from polygraphy.backend.onnx import FoldConstants
from polygraphy.logger import G_LOGGER

G_LOGGER.module_severity = G_LOGGER.CRITICAL

graph = h.make_graph(
    [h.make_node("Shape", ["x"], ["s"], start=1), h.make_node("ConstantOfShape", ["s"], ["y"])],
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])],
    [h.make_tensor_value_info("y", T.FLOAT, [3, 4])],
)
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
x = np.zeros((2, 3, 4), np.float32)


def run(m):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


want = run(model)
folded = FoldConstants(model)()  # the defaults of --fold-constants: fold_shapes=True, shape inference between passes
got = run(folded)
print(f"given model: y {list(want.shape)}; after FoldConstants: y {list(got.shape)}")
sys.exit(0 if want.shape == got.shape and np.array_equal(want, got) else 1)
