"""Polygraphy's shape inference (``InferShapes`` with its defaults, what ``polygraphy surgeon sanitize`` runs on
every model it loads) writes a ``value_info`` shape that does not hold at run time.

``InferShapes`` prefers onnxruntime's symbolic shape inference when it is installed (``allow_onnxruntime=True``, its
docstring: "may provide performance or memory usage benefits") and calls it with ``auto_merge=True``
(``polygraphy/backend/onnx/loader.py``). With ``auto_merge`` that tool merges a symbolic dim with the other side of a
broadcast (``_broadcast_shapes``; its own comment: "auto merge has the risk of incorrectly merge symbols while one of
them being 1"). Broadcasting allows the symbolic side to be 1 (Broadcasting.md), so ``r = ReduceMean(x, axes)``
(``axes`` a graph input, ``keepdims=1``) read by ``Div(x, r)`` gets ``r: [2, 3, 4]`` although it is ``[2, 3, 1]`` for
``axes = [-1]``. ``InferShapes(model, allow_onnxruntime=False)`` (onnx's inference) writes no wrong shape. Exits 1
while a ``value_info`` shape written by ``InferShapes()`` contradicts the run; 0 once every written shape holds.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from polygraphy.backend.onnx import InferShapes
from polygraphy.logger import G_LOGGER

G_LOGGER.module_severity = G_LOGGER.CRITICAL

graph = h.make_graph(
    [h.make_node("ReduceMean", ["x", "axes"], ["r"], keepdims=1), h.make_node("Div", ["x", "r"], ["y"])],
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4]), h.make_tensor_value_info("axes", T.INT64, [1])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 3, 4])],
)
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32), "axes": np.array([-1])}
probe = onnx.ModelProto()
probe.CopyFrom(model)
probe.graph.output.append(h.make_tensor_value_info("r", T.FLOAT, None))
so = ort.SessionOptions()
so.log_severity_level = 3
actual = ort.InferenceSession(probe.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(["r"], feeds)[0]

bad = 0
for allow in (False, True):
    inferred = InferShapes(model, allow_onnxruntime=allow)()
    vi = {v.name: v for v in inferred.graph.value_info}
    t = vi["r"].type.tensor_type if "r" in vi else None
    dims = (
        [d.dim_value if d.HasField("dim_value") else d.dim_param for d in t.shape.dim]
        if t and t.HasField("shape")
        else None
    )
    wrong = dims is not None and any(isinstance(d, int) and d != a for d, a in zip(dims, actual.shape))
    bad |= wrong
    print(
        f"InferShapes(allow_onnxruntime={allow}): r declared {dims if dims is not None else 'with no shape'}, run gives {list(actual.shape)}{' (wrong)' if wrong else ''}"
    )
sys.exit(1 if bad else 0)
