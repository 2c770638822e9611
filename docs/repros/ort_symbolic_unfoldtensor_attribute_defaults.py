"""onnxruntime's symbolic shape inference (``onnxruntime/tools/symbolic_shape_infer.py``, ``_infer_UnfoldTensor``)
reads the com.microsoft UnfoldTensor's ``dim`` and ``step`` only from attributes present on the node, starting from
None: a node that leaves them to their schema defaults (ContribOperators.md UnfoldTensor: ``dim`` default -1,
``step`` default 1; onnxruntime's own schema states them, and its kernel runs the node) makes the tool raise
"TypeError: list indices must be integers or slices, not NoneType". The same node with ``dim = -1, step = 1``
written out is inferred ``[2, 3, 3, 2]``, the shape onnxruntime computes. Exits 1 while the omitted form raises."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference


def model(**attrs):
    node = h.make_node("UnfoldTensor", ["x"], ["y"], domain="com.microsoft", **attrs)
    x = h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])
    g = h.make_graph([node], "g", [x], [h.make_tensor_value_info("y", T.FLOAT, None)])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)], ir_version=8)


def inferred(m):
    try:
        out = SymbolicShapeInference.infer_shapes(m)
    except Exception as exc:  # noqa: BLE001 - the tool's error is the finding
        return f"{type(exc).__name__}: {exc}"
    return [d.dim_value for d in out.graph.output[0].type.tensor_type.shape.dim]


print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
x = {"x": np.zeros((2, 3, 4), np.float32)}
for attrs in ({"size": 2}, {"size": 2, "dim": -1, "step": 1}):
    m = model(**attrs)
    ran = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0].shape
    print(attrs, "onnxruntime runs it:", list(ran), "symbolic shape inference:", inferred(m))
sys.exit(1 if isinstance(inferred(model(size=2)), str) else 0)
