"""onnxruntime's symbolic shape inference (``onnxruntime/tools/symbolic_shape_infer.py``, ``_infer_UnfoldTensor``)
turns a negative ``dim`` of the com.microsoft UnfoldTensor into an axis only when it is -1, then appends the window
size to the output shape before writing the unfolded dim at ``output_shape[dim]``: any other negative ``dim``
(ContribOperators.md UnfoldTensor: the dim to unfold; onnxruntime's kernel takes ``dim + rank``) indexes the grown
list from its end, one place to the right. ``x: float[2, 3, 4]``, ``size = 2``, ``dim = -2`` (the same node as
``dim = 1``): onnxruntime computes ``[2, 2, 4, 2]``, the tool writes ``[2, 3, 2, 2]``; ``dim = -3`` gives
``[2, 1, 4, 2]`` for ``[1, 3, 4, 2]``. Exits 1 while the annotation differs from the run."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference


def model(dim):
    node = h.make_node("UnfoldTensor", ["x"], ["y"], domain="com.microsoft", dim=dim, size=2, step=1)
    x = h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])
    g = h.make_graph([node], "g", [x], [h.make_tensor_value_info("y", T.FLOAT, None)])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)], ir_version=8)


print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
bug = False
for dim in (1, -2, 0, -3):
    m = model(dim)
    ran = list(
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        .run(None, {"x": np.zeros((2, 3, 4), np.float32)})[0]
        .shape
    )
    out = SymbolicShapeInference.infer_shapes(m).graph.output[0]
    inf = [d.dim_value for d in out.type.tensor_type.shape.dim]
    print(f"dim={dim}: onnxruntime {ran}, symbolic shape inference {inf}")
    bug |= inf != ran
sys.exit(1 if bug else 0)
