"""onnxscript's optimizer (rule MaterializeReshapeShape, `rewriter/rules/common/_materialize_reshape_shape.py`) on a
Reshape whose shape is computed and whose output shape is known, at opset 13. Exits 1 while the optimized model is
invalid (onnx, onnxscript)."""

import sys

import numpy as np
import onnx
import onnxscript
import onnxscript.optimizer
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(opset: int) -> onnx.ModelProto:
    """``y = Reshape(x, Concat(Slice(Shape(x), [0], [1]), [2, 2]))``, ``x: float[N, 4]``, ``y: float[N, 2, 2]``."""
    nodes = [
        h.make_node("Shape", ["x"], ["s"]),
        h.make_node("Slice", ["s", "zero", "one"], ["n"]),
        h.make_node("Concat", ["n", "two_two"], ["target"], axis=0),
        h.make_node("Reshape", ["x", "target"], ["y"]),
    ]
    inits = [
        nh.from_array(np.array([0], np.int64), "zero"),
        nh.from_array(np.array([1], np.int64), "one"),
        nh.from_array(np.array([2, 2], np.int64), "two_two"),
    ]
    graph = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, ["N", 4])],
        [h.make_tensor_value_info("y", T.FLOAT, ["N", 2, 2])],
        inits,
    )
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=7)


bad = 0
for opset in (13, 14):
    m = model(opset)
    onnx.checker.check_model(m, full_check=True)
    out = onnxscript.optimizer.optimize(m)
    reshapes = [
        {a.name: h.get_attribute_value(a) for a in n.attribute} for n in out.graph.node if n.op_type == "Reshape"
    ]
    try:
        onnx.checker.check_model(out, full_check=True)
        print(f"onnxscript {onnxscript.__version__}, opset {opset}: valid; Reshape attributes {reshapes}")
    except Exception as exc:  # noqa: BLE001 - the checker's ValidationError
        print(f"onnxscript {onnxscript.__version__}, opset {opset}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
        bad += opset < 14  # Reshape-14 introduced allowzero
sys.exit(1 if bad else 0)
