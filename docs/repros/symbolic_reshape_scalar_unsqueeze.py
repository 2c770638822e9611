"""onnxruntime's symbolic shape inference (`onnxruntime/tools/symbolic_shape_infer.py`): a rank-0 value reshaped to
the empty shape ``[]`` (itself), then unsqueezed. Exits 1 while the tool raises (onnx, onnxruntime, numpy)."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference


def model(shape_from: str) -> onnx.ModelProto:
    """``n = Size(x)``; ``r = Reshape(n, s)`` with ``s`` the empty int64 initializer or ``Shape(n)``;
    ``y = Unsqueeze(r, [0])``; ``x: float[3]``, opset 13."""
    nodes = [h.make_node("Size", ["x"], ["n"])]
    inits = [nh.from_array(np.array([0], np.int64), "ax")]
    if shape_from == "Shape(n)":
        nodes.append(h.make_node("Shape", ["n"], ["s"]))
    else:
        inits.append(nh.from_array(np.zeros((0,), np.int64), "s"))
    nodes += [h.make_node("Reshape", ["n", "s"], ["r"]), h.make_node("Unsqueeze", ["r", "ax"], ["y"])]
    graph = h.make_graph(
        nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [3])], [h.make_tensor_value_info("y", T.INT64, [1])], inits
    )
    return h.make_model(graph, opset_imports=[h.make_opsetid("", 13)], ir_version=8)


bad = 0
for shape_from in ("an empty initializer", "Shape(n)"):
    m = model(shape_from)
    onnx.checker.check_model(m, full_check=True)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    y = sess.run(None, {"x": np.zeros(3, np.float32)})[0]
    try:
        out = SymbolicShapeInference.infer_shapes(m)
        print(f"shape from {shape_from}: inferred, onnxruntime runs {y.tolist()}")
    except Exception as exc:  # noqa: BLE001 - the tool's own exception
        print(f"shape from {shape_from}: {type(exc).__name__}: {exc} (onnxruntime runs {y.tolist()})")
        bad += 1
sys.exit(1 if bad else 0)
